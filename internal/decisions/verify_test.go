package decisions

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// The canonical form: keys sorted, no spaces, <>& as they are, the time
// in UTC; the arguments by the digest the record keeps too. Any other
// spelling of the same statement is refused.
func TestAStatementIsCanonical(t *testing.T) {
	st := Statement{Set: "q1", At: time.Date(2026, 12, 5, 9, 0, 0, 5, time.FixedZone("x", 3600)), Title: "a && b > c",
		Arguments: Digest(json.RawMessage(`{"command": "a && b > c"}`))}
	b, err := st.Canonical()
	require.NoError(t, err)
	assert.Equal(t, `{"agent":"","arguments":"`+Digest(json.RawMessage(`{"command":"a && b > c"}`))+`","at":"2026-12-05T08:00:00.000000005Z",`+
		`"cwd":"","device":"","host":"","kind":"","nonce":"","options":[],"reason":"","set":"q1","step":0,"title":"a && b > c","type":"askbridge.approval.v1"}`, string(b))
	again, err := ParseStatement(b)
	require.NoError(t, err)
	assert.Equal(t, "q1", again.Set)
	_, err = ParseStatement(bytes.Replace(b, []byte(`"set":"q1"`), []byte(`"set": "q1"`), 1))
	assert.ErrorContains(t, err, "canonical")
}

// signer is a software passkey.
type signer struct{ key *ecdsa.PrivateKey }

// signed is the record of approving set q1 with "Allow once", signed with
// flags and a clientDataJSON of type typ.
func (s signer) signed(t *testing.T, flags byte, typ string) Record {
	stmt, err := Statement{Set: "q1", Device: "d1", At: time.Now(), Title: "rm -rf build", Options: []Picked{{Kind: "allow_once", Name: "Allow once", OptionID: "a"}}}.Canonical()
	require.NoError(t, err)
	cose, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{PublicKeyData: webauthncose.PublicKeyData{KeyType: 2, Algorithm: -7},
		Curve: 1, XCoord: s.key.PublicKey.X.FillBytes(make([]byte, 32)), YCoord: s.key.PublicKey.Y.FillBytes(make([]byte, 32))})
	require.NoError(t, err)
	rp := sha256.Sum256([]byte("localhost"))
	data := append(rp[:], flags, 0, 0, 0, 7)
	client, _ := json.Marshal(map[string]string{"type": typ, "challenge": base64.RawURLEncoding.EncodeToString(Challenge(stmt))})
	h := sha256.Sum256(client)
	d := sha256.Sum256(append(bytes.Clone(data), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, s.key, d[:])
	require.NoError(t, err)
	return Record{Set: "q1", Kind: permission.KindApproval, Asked: "rm -rf build", Answer: "Allow once",
		Signed: &permission.Signed{Statement: stmt, Device: "d1", RPID: "localhost", CredentialID: []byte("c"), PublicKey: cose,
			AuthenticatorData: data, ClientDataJSON: client, Signature: sig}}
}

// Verify holds a record to all of it: the user verified, an assertion
// (not a registration), the record saying what its statement does, the
// signature; and names why one fails.
func TestVerifyNamesWhyARecordFails(t *testing.T) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	s := signer{k}
	good := s.signed(t, 0x05, "webauthn.get")
	answer := good
	answer.Answer = "Always allow"
	reason := good
	reason.Reason = "fine"
	cut := good
	cutSig := *good.Signed
	cutSig.Signature = cutSig.Signature[:len(cutSig.Signature)-1]
	cut.Signed = &cutSig
	otherRP := good
	rpSig := *good.Signed
	rpSig.RPID = "example.com"
	otherRP.Signed = &rpSig
	for _, c := range []struct {
		rec  Record
		want string
	}{
		{s.signed(t, 0x01, "webauthn.get"), "did not verify the user"},
		{s.signed(t, 0x05, "webauthn.create"), "not webauthn.get"},
		{answer, `answer "Allow once", not "Always allow"`},
		{reason, "reason"},
		{cut, "signature does not hold"},
		{otherRP, "not for example.com"},
	} {
		v := Verify([]Record{good, c.rec, {Set: "q2"}}, nil)
		assert.NoError(t, v[0].Err)
		assert.ErrorContains(t, v[1].Err, c.want)
		assert.False(t, v[2].Signed)
		assert.NoError(t, v[2].Err, "an unsigned record is no failure")
	}
}
