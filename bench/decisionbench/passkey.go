//go:build unix

package main

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

// softKey is the bench's passkey: a software authenticator (as
// internal/desk's tests have one) that makes a P-256 credential for the
// page at origin and signs what the hub asks it to, always with user
// presence and verification, as a platform authenticator after a finger
// would. The hub's checks are the real ones; only the finger is not.
type softKey struct {
	key    *ecdsa.PrivateKey
	id     []byte
	origin string // http://localhost:PORT
	count  uint32
}

var b64u = base64.RawURLEncoding

// Authenticator data flags (WebAuthn §6.1).
const (
	flagUP = 0x01 // user present
	flagUV = 0x04 // user verified
	flagAT = 0x40 // attested credential data follows
)

func newSoftKey(origin string) (*softKey, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &softKey{key: k, id: id, origin: origin}, nil
}

// authData is the authenticator data for the RP ID "localhost", its
// counter grown each time (the hub refuses a counter that does not grow).
func (k *softKey) authData(flags byte, attested []byte) []byte {
	rp := sha256.Sum256([]byte("localhost"))
	k.count++
	out := append(rp[:], flags)
	out = binary.BigEndian.AppendUint32(out, k.count)
	return append(out, attested...)
}

func (k *softKey) clientData(typ, challenge string) []byte {
	b, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": k.origin, "crossOrigin": false})
	return b
}

// create answers /pair/begin's challenge with a new credential, as
// navigator.credentials.create's toJSON() gives it ("none" attestation).
func (k *softKey) create(challenge string) (json.RawMessage, error) {
	cose, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{PublicKeyData: webauthncose.PublicKeyData{KeyType: 2, Algorithm: -7},
		Curve: 1, XCoord: k.key.PublicKey.X.FillBytes(make([]byte, 32)), YCoord: k.key.PublicKey.Y.FillBytes(make([]byte, 32))})
	if err != nil {
		return nil, err
	}
	attested := append(make([]byte, 16), byte(len(k.id)>>8), byte(len(k.id))) // AAGUID zero, id length
	attested = append(append(attested, k.id...), cose...)
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(flagUP|flagUV|flagAT, attested)})
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"id": b64u.EncodeToString(k.id), "rawId": b64u.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64u.EncodeToString(k.clientData("webauthn.create", challenge)), "attestationObject": b64u.EncodeToString(att)}})
}

// get answers a presence challenge with a user-verified assertion, as
// navigator.credentials.get's toJSON() gives it.
func (k *softKey) get(challenge string) (json.RawMessage, error) {
	data, client := k.authData(flagUP|flagUV, nil), k.clientData("webauthn.get", challenge)
	h := sha256.Sum256(client)
	digest := sha256.Sum256(append(append([]byte{}, data...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, digest[:])
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"id": b64u.EncodeToString(k.id), "rawId": b64u.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64u.EncodeToString(client), "authenticatorData": b64u.EncodeToString(data), "signature": b64u.EncodeToString(sig)}})
}
