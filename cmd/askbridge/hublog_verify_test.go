package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
	"github.com/go-webauthn/webauthn/webauthn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
)

// passkey is a software authenticator: a P-256 key that signs assertions
// with user verification, as a phone's passkey does.
type passkey struct {
	key *ecdsa.PrivateKey
	id  []byte
}

func newPasskey(t *testing.T) passkey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	return passkey{key: k, id: []byte("cred-" + t.Name())}
}

func (p passkey) cose(t *testing.T) []byte {
	b, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{PublicKeyData: webauthncose.PublicKeyData{KeyType: 2, Algorithm: -7},
		Curve: 1, XCoord: p.key.PublicKey.X.FillBytes(make([]byte, 32)), YCoord: p.key.PublicKey.Y.FillBytes(make([]byte, 32))})
	require.NoError(t, err)
	return b
}

// sign is the record of approving set with answer, signed by p as device
// dev at localhost.
func (p passkey) sign(t *testing.T, dev, set, answer string) decisions.Record {
	st := decisions.Statement{Set: set, Device: dev, At: time.Now(), Nonce: "n-" + set, Title: "rm -rf build", Kind: "execute",
		Arguments: decisions.Digest(json.RawMessage(`{"command":"rm -rf build"}`)), Agent: "claude", CWD: "/src/app",
		Options: []decisions.Picked{{Kind: "allow_once", Name: answer, OptionID: "allow"}}}
	stmt, err := st.Canonical()
	require.NoError(t, err)
	rp := sha256.Sum256([]byte("localhost"))
	data := append(rp[:], 0x01|0x04, 0, 0, 0, 1)
	client, _ := json.Marshal(map[string]any{"type": "webauthn.get", "challenge": base64.RawURLEncoding.EncodeToString(decisions.Challenge(stmt)), "origin": "http://localhost:1"})
	h := sha256.Sum256(client)
	digest := sha256.Sum256(append(bytes.Clone(data), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, p.key, digest[:])
	require.NoError(t, err)
	return decisions.Record{Time: time.Now(), Set: set, Kind: permission.KindApproval, Asked: "rm -rf build", Outcome: permission.StateAnswered,
		Digest: st.Arguments, Answer: answer, Route: permission.SourceHub, Device: "Pixel 8",
		Signed: &permission.Signed{Statement: stmt, Device: dev, RPID: "localhost", CredentialID: p.id, PublicKey: p.cose(t),
			AuthenticatorData: data, ClientDataJSON: client, Signature: sig}}
}

// askbridge hub log --verify checks every signed approval offline against
// the hub's paired devices: an untouched log verifies; one byte changed in
// a record's statement and that record is named, and it exits 1; a
// revoked device's records still verify, with the key they carry; a key
// that is not the paired device's fails.
func TestHubLogVerifiesSignedApprovals(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	pk := newPasskey(t)
	keyPath, err := hubkey.Path()
	require.NoError(t, err)
	key, err := hubkey.Open(keyPath)
	require.NoError(t, err)
	devPath, err := hub.DevicesPath()
	require.NoError(t, err)
	devices, err := pairing.Open(devPath, key.Derive("hub-devices.json"))
	require.NoError(t, err)
	dev, _, err := devices.Add("Pixel 8", "localhost", []byte("user"), &webauthn.Credential{ID: pk.id, PublicKey: pk.cose(t)}, false)
	require.NoError(t, err)

	path, err := hub.DecisionsPath()
	require.NoError(t, err)
	l, err := decisions.Open(path, 0)
	require.NoError(t, err)
	require.NoError(t, l.Append(pk.sign(t, dev.ID, "q1", "Allow once")))
	require.NoError(t, l.Append(decisions.Record{Time: time.Now(), Set: "q2", Kind: permission.KindQuestion, Outcome: permission.StateAnswered}))
	require.NoError(t, l.Append(pk.sign(t, dev.ID, "q3", "Allow once")))
	verify := func() (int, string) {
		var out, errOut bytes.Buffer
		code := run([]string{"hub", "log", "--verify"}, strings.NewReader(""), &out, &errOut)
		return code, out.String() + errOut.String()
	}
	code, out := verify()
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "2 signed decisions verified (0 by devices not paired now), 0 fail")

	// One byte of q3's statement changed in the file: the folder it
	// approved in, "/src/app" made "/src/apq".
	recs, err := decisions.Read(path)
	require.NoError(t, err)
	recs[2].Signed.Statement[bytes.Index(recs[2].Signed.Statement, []byte("/src/app"))+7] = 'q'
	rewrite(t, path, recs)
	code, out = verify()
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "set q3 (rm -rf build) by "+dev.ID+": clientDataJSON's challenge is not SHA-256 of the statement")
	assert.NotContains(t, out, "set q1 ", "the untouched record is not named")
	assert.Contains(t, out, "1 fail")

	// q3 signed again by another key under the paired device's id.
	recs[2] = newPasskey(t).sign(t, dev.ID, "q3", "Allow once")
	rewrite(t, path, recs)
	code, out = verify()
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "its key is not the passkey of device "+dev.ID)

	// The device revoked: its untouched records still verify.
	recs[2] = pk.sign(t, dev.ID, "q3", "Allow once")
	rewrite(t, path, recs)
	require.NoError(t, devices.Revoke(dev.ID))
	code, out = verify()
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "2 signed decisions verified (2 by devices not paired now), 0 fail")
}

func rewrite(t *testing.T, path string, recs []decisions.Record) {
	var b bytes.Buffer
	for _, r := range recs {
		require.NoError(t, json.NewEncoder(&b).Encode(r))
	}
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o600))
}
