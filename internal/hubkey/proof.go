package hubkey

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
)

// PageContext is what a page's proof is for: it keeps a signature made for
// the page from standing for anything else the key signs.
const PageContext = "askbridge page proof v1"

// proofMessage is what is signed: the context, the server's view of the
// connection (the Host the browser asked for) and the page's nonce.
func proofMessage(context, view string, nonce []byte) []byte {
	return []byte(context + "\n" + view + "\n" + base64.RawURLEncoding.EncodeToString(nonce))
}

// MinNonce is the shortest nonce Prove signs: a page's is 32 random bytes.
const MinNonce = 16

// Prove signs the page's nonce as seen at view (its Host), for context.
func (k *Key) Prove(context, view string, nonce []byte) ([]byte, error) {
	if len(nonce) < MinNonce || len(nonce) > 256 {
		return nil, errors.New("a nonce is 16 to 256 bytes")
	}
	return ed25519.Sign(k.priv, proofMessage(context, view, nonce)), nil
}

// Verify is the page's check (prove.js does the same in the browser).
func Verify(pub ed25519.PublicKey, context, view string, nonce, sig []byte) bool {
	return len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, proofMessage(context, view, nonce), sig)
}
