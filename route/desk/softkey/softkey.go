package softkey

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
)

// Authenticator data flags (WebAuthn §6.1).
const (
	UP = 0x01 // user present
	UV = 0x04 // user verified
	AT = 0x40 // attested credential data follows
)

// Key is the passkey. Count is its signature counter, grown at each
// signature; a copy of a Key (a clone of the authenticator) shares its
// private key and goes on from the Count it was copied with.
type Key struct {
	priv   *ecdsa.PrivateKey
	id     []byte
	Origin string // the page's, http://localhost:PORT
	Count  uint32
}

var b64u = base64.RawURLEncoding

// New makes a passkey for the page at origin.
func New(origin string) (*Key, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &Key{priv: k, id: id, Origin: origin}, nil
}

// authData is the authenticator data for the RP ID "localhost", its
// counter grown each time (the hub refuses a counter that does not grow).
func (k *Key) authData(flags byte, attested []byte) []byte {
	rp := sha256.Sum256([]byte("localhost"))
	k.Count++
	out := append(rp[:], flags)
	out = binary.BigEndian.AppendUint32(out, k.Count)
	return append(out, attested...)
}

func (k *Key) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": k.Origin, "crossOrigin": false})
	return b
}

// Create answers /pair/begin's challenge with the credential, as
// navigator.credentials.create's toJSON() gives it ("none" attestation).
func (k *Key) Create(challenge string, flags byte) (json.RawMessage, error) {
	cose, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{PublicKeyData: webauthncose.PublicKeyData{KeyType: 2, Algorithm: -7},
		Curve: 1, XCoord: k.priv.PublicKey.X.FillBytes(make([]byte, 32)), YCoord: k.priv.PublicKey.Y.FillBytes(make([]byte, 32))})
	if err != nil {
		return nil, err
	}
	attested := append(make([]byte, 16), byte(len(k.id)>>8), byte(len(k.id))) // AAGUID zero, id length
	attested = append(append(attested, k.id...), cose...)
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(flags|AT, attested)})
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"id": b64u.EncodeToString(k.id), "rawId": b64u.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64u.EncodeToString(k.clientData("webauthn.create", challenge)), "attestationObject": b64u.EncodeToString(att)}})
}

// Get answers a presence challenge with an assertion, as
// navigator.credentials.get's toJSON() gives it.
func (k *Key) Get(challenge string, flags byte) (json.RawMessage, error) {
	data, client := k.authData(flags, nil), k.clientData("webauthn.get", challenge)
	h := sha256.Sum256(client)
	digest := sha256.Sum256(append(append([]byte{}, data...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.priv, digest[:])
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"id": b64u.EncodeToString(k.id), "rawId": b64u.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64u.EncodeToString(client), "authenticatorData": b64u.EncodeToString(data), "signature": b64u.EncodeToString(sig)}})
}
