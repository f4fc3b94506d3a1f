package decisions

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/go-webauthn/webauthn/protocol/webauthncose"
)

// Key is a paired device's passkey, as the hub's devices file keeps it.
type Key struct {
	Name         string
	CredentialID []byte
	PublicKey    []byte // COSE
}

// Verdict is what Verify found of one record.
type Verdict struct {
	Record Record
	// Signed says the record carries a proof; Paired names the device
	// paired now whose key signed it ("" for a device no longer paired:
	// the record's own key was used, see Verify).
	Signed bool
	Paired string
	Err    error // why the record fails; nil when it verifies
}

// Verify checks each signed record offline: its statement is canonical
// and says what the record says (set, options, reason, title, device);
// the assertion's clientDataJSON is of type webauthn.get with the
// challenge SHA-256(statement); its authenticator data is for the
// passkey's relying party, with the user present and verified; and its
// signature holds under the record's public key. That key must be the
// one paired now under the record's device id (paired, by id); a device
// no longer paired (revoked: the devices file forgets it) is checked
// with the key its records carry, and its verdict says so (Paired "").
func Verify(recs []Record, paired map[string]Key) []Verdict {
	out := make([]Verdict, len(recs))
	for i, r := range recs {
		out[i] = Verdict{Record: r, Signed: r.Signed != nil}
		if r.Signed == nil {
			continue
		}
		if k, ok := paired[r.Signed.Device]; ok {
			if !bytes.Equal(k.CredentialID, r.Signed.CredentialID) || !bytes.Equal(k.PublicKey, r.Signed.PublicKey) {
				out[i].Err = fmt.Errorf("its key is not the passkey of device %s (%s) paired now", r.Signed.Device, k.Name)
				continue
			}
			out[i].Paired = k.Name
		}
		out[i].Err = verify(r)
	}
	return out
}

// verify checks one signed record against its own key.
func verify(r Record) error {
	s := r.Signed
	st, err := ParseStatement(s.Statement)
	if err != nil {
		return err
	}
	if err := says(r, st); err != nil {
		return fmt.Errorf("the statement does not say what the record does: %w", err)
	}
	var client struct {
		Type      string `json:"type"`
		Challenge string `json:"challenge"`
	}
	if err := json.Unmarshal(s.ClientDataJSON, &client); err != nil {
		return fmt.Errorf("clientDataJSON: %w", err)
	}
	challenge, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(client.Challenge, "="))
	switch {
	case client.Type != "webauthn.get":
		return fmt.Errorf("clientDataJSON's type is %q, not webauthn.get", client.Type)
	case err != nil || !bytes.Equal(challenge, Challenge(s.Statement)):
		return errors.New("clientDataJSON's challenge is not SHA-256 of the statement")
	}
	const upFlag, uvFlag = 0x01, 0x04
	rp := sha256.Sum256([]byte(s.RPID))
	switch ad := s.AuthenticatorData; {
	case len(ad) < 37:
		return errors.New("the authenticator data is cut short")
	case !bytes.Equal(ad[:32], rp[:]):
		return fmt.Errorf("the authenticator data is not for %s", s.RPID)
	case ad[32]&upFlag == 0 || ad[32]&uvFlag == 0:
		return errors.New("the passkey did not verify the user (no UP and UV flags)")
	}
	key, err := webauthncose.ParsePublicKey(s.PublicKey)
	if err != nil {
		return fmt.Errorf("the public key: %w", err)
	}
	h := sha256.Sum256(s.ClientDataJSON)
	ok, err := webauthncose.VerifySignature(key, append(bytes.Clone(s.AuthenticatorData), h[:]...), s.Signature)
	if !ok || err != nil {
		return fmt.Errorf("the signature does not hold (%v)", err)
	}
	return nil
}

// says checks that statement st is of record r.
func says(r Record, st Statement) error {
	var labels []string
	for _, o := range st.Options {
		labels = append(labels, cmp.Or(o.Name, o.OptionID))
	}
	switch {
	case st.Set != r.Set:
		return fmt.Errorf("set %q, not %q", st.Set, r.Set)
	case st.Device != r.Signed.Device:
		return fmt.Errorf("device %q, not %q", st.Device, r.Signed.Device)
	case strings.Join(labels, ", ") != r.Answer:
		return fmt.Errorf("answer %q, not %q", strings.Join(labels, ", "), r.Answer)
	case st.Reason != r.Reason:
		return fmt.Errorf("reason %q, not %q", st.Reason, r.Reason)
	case st.Title != "" && st.Title != r.Asked:
		return fmt.Errorf("command %q, not %q", st.Title, r.Asked)
	case st.Arguments != r.Digest:
		return fmt.Errorf("arguments %q, not %q", st.Arguments, r.Digest)
	}
	return nil
}
