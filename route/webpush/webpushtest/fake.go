// Package webpushtest is a push service for tests: on loopback, over TLS,
// it does what a real one must before it delivers (checks the VAPID JWT)
// and what the browser does on delivery (decrypts the payload with the
// subscription's own keys, RFC 8291).
package webpushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"time"

	wp "github.com/SherClockHolmes/webpush-go"
)

// Service is a push service on loopback (TLS) that checks the VAPID JWT
// against the key in the request and, as the browser would, decrypts the
// payload with the subscription's private key and auth secret.
type Service struct {
	t      TB
	srv    *httptest.Server
	status int // what it answers; 201 when 0

	redirect string   // where it sends every request (307), if anywhere
	paths    []string // every request's, in order

	mu       sync.Mutex
	subs     map[string]*fakeSub // path -> the browser side of a subscription
	received []Delivery
	bad      []string // what a request got wrong
}

type fakeSub struct {
	priv *ecdh.PrivateKey
	auth []byte
}

// Delivery is a push the service took: its path, headers, the payload
// decrypted and the VAPID key that signed it.
type Delivery struct {
	Path     string
	Header   http.Header
	Payload  []byte
	VAPIDKey string
	At       time.Time // when its request reached the service
}

// TB is what the service needs of its test: a *testing.T or *testing.B,
// or a benchmark program's own (bench/decisionbench).
type TB interface {
	Cleanup(func())
	Fatal(args ...any)
}

// Start serves a push service until the test ends.
func Start(t TB) *Service {
	f := &Service{t: t, subs: map[string]*fakeSub{}}
	f.srv = httptest.NewTLSServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// Subscribe makes a browser-side subscription at path.
func (f *Service) Subscribe(path string) wp.Subscription {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		f.t.Fatal(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	f.mu.Lock()
	f.subs[path] = &fakeSub{priv: priv, auth: auth}
	f.mu.Unlock()
	b64 := base64.RawURLEncoding.EncodeToString
	return wp.Subscription{Endpoint: f.srv.URL + path, Keys: wp.Keys{Auth: b64(auth), P256dh: b64(priv.PublicKey().Bytes())}}
}

func (f *Service) serve(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	sub := f.subs[r.URL.Path]
	f.paths = append(f.paths, r.URL.Path)
	redirect := f.redirect
	f.mu.Unlock()
	if redirect != "" && redirect != r.URL.Path {
		http.Redirect(w, r, redirect, http.StatusTemporaryRedirect)
		return
	}
	fail := func(why string) {
		f.mu.Lock()
		f.bad = append(f.bad, why)
		f.mu.Unlock()
		http.Error(w, why, http.StatusBadRequest)
	}
	if sub == nil {
		http.NotFound(w, r)
		return
	}
	key, err := checkVAPID(r.Header.Get("Authorization"), "https://"+r.Host)
	if err != nil {
		fail("VAPID: " + err.Error())
		return
	}
	if r.Header.Get("Content-Encoding") != "aes128gcm" || r.Header.Get("TTL") == "" {
		fail("headers: " + fmt.Sprint(r.Header))
		return
	}
	plain, err := decrypt(body, sub)
	if err != nil {
		fail("decrypt: " + err.Error())
		return
	}
	if !json.Valid(plain) {
		fail("payload: not JSON")
		return
	}
	f.mu.Lock()
	f.received = append(f.received, Delivery{Path: r.URL.Path, Header: r.Header.Clone(), Payload: plain, VAPIDKey: key, At: at})
	status := max(f.status, http.StatusCreated)
	f.mu.Unlock()
	w.WriteHeader(status)
}

// SetStatus makes the service answer status from now on (410: gone).
func (f *Service) SetStatus(status int) {
	f.mu.Lock()
	f.status = status
	f.mu.Unlock()
}

// Redirect makes the service answer every request but one for path with
// a 307 to path.
func (f *Service) Redirect(path string) {
	f.mu.Lock()
	f.redirect = path
	f.mu.Unlock()
}

// Paths are the paths of every request the service got, in order.
func (f *Service) Paths() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.paths...)
}

// Trust is what a Pusher of a test needs to reach the service
// (webpush.Options.Test): its address, on loopback, which no Pusher
// reaches otherwise, and its certificate.
func (f *Service) Trust() (netip.AddrPort, *x509.CertPool) {
	roots := x509.NewCertPool()
	roots.AddCert(f.srv.Certificate())
	return netip.MustParseAddrPort(f.srv.Listener.Addr().String()), roots
}

// Got is what the service took so far, and what it refused and why.
func (f *Service) Got() ([]Delivery, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Delivery(nil), f.received...), append([]string(nil), f.bad...)
}

// checkVAPID checks "vapid t=JWT, k=KEY" (RFC 8292): an ES256 JWT signed by
// KEY, for this push service's origin, not expired, naming a contact.
func checkVAPID(h, origin string) (string, error) {
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return "", errors.New("no vapid scheme: " + h)
	}
	var tok, k string
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			tok = v
		} else if v, ok := strings.CutPrefix(part, "k="); ok {
			k = v
		}
	}
	raw, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil {
		return "", fmt.Errorf("k: %v", err)
	}
	x, y := elliptic.Unmarshal(elliptic.P256(), raw) //nolint:staticcheck // the point as VAPID sends it
	if x == nil {
		return "", errors.New("k: not a P-256 point")
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return "", errors.New("t: not a JWT")
	}
	var head struct{ Alg string }
	var claims struct {
		Aud, Sub string
		Exp      int64
	}
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	if json.Unmarshal(hb, &head) != nil || head.Alg != "ES256" || json.Unmarshal(cb, &claims) != nil || len(sig) != 64 {
		return "", errors.New("t: not an ES256 JWT")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	pub := &ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}
	if !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", errors.New("t: the signature is not k's")
	}
	switch {
	case claims.Aud != origin:
		return "", fmt.Errorf("aud %q, want %q", claims.Aud, origin)
	case claims.Exp < time.Now().Unix() || claims.Exp > time.Now().Add(24*time.Hour).Unix():
		return "", fmt.Errorf("exp %d out of range", claims.Exp)
	case !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https:"):
		return "", fmt.Errorf("sub %q", claims.Sub)
	}
	return k, nil
}

// decrypt opens an aes128gcm body (RFC 8188) with the keys RFC 8291 derives.
func decrypt(body []byte, sub *fakeSub) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("short")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen || rs < 18 {
		return nil, errors.New("header")
	}
	asPub, ct := body[21:21+idlen], body[21+idlen:]
	as, err := ecdh.P256().NewPublicKey(asPub)
	if err != nil {
		return nil, err
	}
	secret, err := sub.priv.ECDH(as)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), sub.priv.PublicKey().Bytes()...), asPub...)
	ikm, err := hkdf.Key(sha256.New, secret, sub.auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, _ := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	nonce, _ := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	block, _ := aes.NewCipher(cek)
	gcm, _ := cipher.NewGCM(block)
	plain, err := gcm.Open(nil, nonce, ct, nil)
	if err != nil {
		return nil, err
	}
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}
