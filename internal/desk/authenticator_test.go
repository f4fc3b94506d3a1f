package desk

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/go-webauthn/webauthn/protocol/webauthncbor"
	"github.com/go-webauthn/webauthn/protocol/webauthncose"
	"github.com/stretchr/testify/require"
)

// softKey is a passkey made in the test: an authenticator that signs what
// it is told, with user verification or without, so that the server's own
// checks are what is tested.
type softKey struct {
	key    *ecdsa.PrivateKey
	id     []byte
	origin string
	count  uint32
}

var b64u = base64.RawURLEncoding

func newSoftKey(t *testing.T, origin string) *softKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	id := make([]byte, 16)
	rand.Read(id)
	return &softKey{key: k, id: id, origin: origin}
}

const (
	flagUP = 0x01
	flagUV = 0x04
	flagAT = 0x40
)

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

// create answers /pair/begin's options: a credential as navigator.credentials.create's toJSON().
func (k *softKey) create(t *testing.T, challenge string, flags byte) json.RawMessage {
	cose, err := webauthncbor.Marshal(webauthncose.EC2PublicKeyData{PublicKeyData: webauthncose.PublicKeyData{KeyType: 2, Algorithm: -7},
		Curve: 1, XCoord: k.key.PublicKey.X.FillBytes(make([]byte, 32)), YCoord: k.key.PublicKey.Y.FillBytes(make([]byte, 32))})
	require.NoError(t, err)
	attested := append(make([]byte, 16), byte(len(k.id)>>8), byte(len(k.id)))
	attested = append(append(attested, k.id...), cose...)
	att, err := webauthncbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(flags|flagAT, attested)})
	require.NoError(t, err)
	b, _ := json.Marshal(map[string]any{"id": b64u.EncodeToString(k.id), "rawId": b64u.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64u.EncodeToString(k.clientData("webauthn.create", challenge)), "attestationObject": b64u.EncodeToString(att)}})
	return b
}

// get answers /presence's options: an assertion as navigator.credentials.get's toJSON().
func (k *softKey) get(t *testing.T, challenge string, flags byte) json.RawMessage {
	data, client := k.authData(flags, nil), k.clientData("webauthn.get", challenge)
	h := sha256.Sum256(client)
	digest := sha256.Sum256(append(append([]byte{}, data...), h[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, digest[:])
	require.NoError(t, err)
	b, _ := json.Marshal(map[string]any{"id": b64u.EncodeToString(k.id), "rawId": b64u.EncodeToString(k.id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64u.EncodeToString(client), "authenticatorData": b64u.EncodeToString(data), "signature": b64u.EncodeToString(sig)}})
	return b
}

// localhost is a browser at http://localhost:PORT (the name a passkey
// takes), with its cookie jar and, once paired, its key.
type localhost struct {
	t    *testing.T
	s    *Server
	http *http.Client
	key  string
	mac  string // the request key pairing gave (auth_mac.go)
}

func newLocalhost(t *testing.T, s *Server) *localhost {
	jar, _ := cookiejar.New(nil)
	return &localhost{t: t, s: s, http: &http.Client{Jar: jar}}
}

func (l *localhost) origin() string {
	return "http://localhost:" + strings.Split(l.s.ln.Addr().String(), ":")[1]
}

// post sends body to path as the page at localhost does; out, when set,
// takes the JSON answer.
func (l *localhost) post(path string, body any, out any) int {
	l.t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", l.s.base()+path, strings.NewReader(string(b)))
	require.NoError(l.t, err)
	req.Host = strings.TrimPrefix(l.origin(), "http://")
	req.Header.Set("Origin", l.origin())
	if l.mac != "" {
		require.NoError(l.t, Sign(req, l.mac))
	}
	resp, err := l.http.Do(req)
	require.NoError(l.t, err)
	defer resp.Body.Close()
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// pairWith pairs l with a passkey made by k (with flags).
func (l *localhost) pairWith(k *softKey, flags byte) int {
	code, _ := l.s.Devices().NewCode()
	var begun struct {
		Ticket    string
		PublicKey struct {
			PublicKey struct{ Challenge string }
		}
	}
	require.Equal(l.t, 200, l.post("/pair/begin", map[string]string{"code": code, "name": "test laptop"}, &begun))
	require.NotEmpty(l.t, begun.PublicKey.PublicKey.Challenge, "localhost takes a passkey")
	var done struct{ Key, MAC string }
	status := l.post("/pair/finish", map[string]any{"ticket": begun.Ticket, "name": "test laptop", "credential": k.create(l.t, begun.PublicKey.PublicKey.Challenge, flags)}, &done)
	l.key, l.mac = done.Key, done.MAC
	return status
}

// challenge asks for the passkey challenge of approving id with answers.
func (l *localhost) challenge(id string, answers [][]string) string {
	var opts struct {
		PublicKey struct {
			Challenge string
			RPID      string `json:"rpId"`
		}
	}
	require.Equal(l.t, 200, l.post("/question/"+id+"/presence", map[string]any{"answers": answers, "step": 0}, &opts))
	require.Equal(l.t, "localhost", opts.PublicKey.RPID)
	return opts.PublicKey.Challenge
}
