package permission

// Signed is the proof that goes with an approval decided on a paired
// device's page: the statement of what is applied, and the passkey's
// assertion whose challenge is SHA-256 of it. The board carries it from
// the answer (By) to its Result, where the hub's decisions log takes it;
// none of it is a secret (a public key, a signature, what was approved).
type Signed struct {
	// Statement is the canonical statement, byte for byte as hashed.
	Statement []byte `json:"statement"`
	// Device is the paired device's id, RPID the passkey's relying party.
	Device string `json:"device"`
	RPID   string `json:"rpId"`
	// CredentialID and PublicKey (COSE) are the device's passkey, kept
	// with the proof so that a revoked device's records still verify.
	CredentialID []byte `json:"credentialId"`
	PublicKey    []byte `json:"publicKey"`
	// The assertion as the authenticator made it.
	AuthenticatorData []byte `json:"authenticatorData"`
	ClientDataJSON    []byte `json:"clientDataJSON"`
	Signature         []byte `json:"signature"`
}
