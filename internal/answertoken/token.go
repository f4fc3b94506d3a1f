package answertoken

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"sync"
)

// Errors of Key.Redeem.
var (
	// ErrForged: not a token this key signed, or one altered since.
	ErrForged = errors.New("answer token: not signed by this askbridge")
	// ErrSpent: the token was redeemed already.
	ErrSpent = errors.New("answer token: already used")
)

// Claim is what a token answers: the set, and the index of the option
// picked among its question's options.
type Claim struct {
	Set    string
	Option int
}

// Key mints and redeems tokens. Its secret exists in this process only.
type Key struct {
	secret [32]byte

	mu    sync.Mutex
	spent map[string]struct{} // the signatures of tokens redeemed
}

// New makes a key with a fresh random secret.
func New() *Key {
	k := &Key{spent: map[string]struct{}{}}
	rand.Read(k.secret[:]) // never fails (crypto/rand, Go 1.24+)
	return k
}

// b64 decodes strictly: a token has one spelling, so a replay cannot pass
// as a new token by flipping a padding bit.
var b64 = base64.RawURLEncoding.Strict()

// Mint returns a token for answering set with its option at index option.
// Each call makes a new token (a random nonce), so the buttons of two
// notifications for one set are told apart. The token uses only
// characters a URL path takes as they are.
func (k *Key) Mint(set string, option int) string {
	nonce := make([]byte, 12)
	rand.Read(nonce)
	body := b64.EncodeToString([]byte(set)) + "." + strconv.Itoa(option) + "." + b64.EncodeToString(nonce)
	return body + "." + b64.EncodeToString(k.sign(body))
}

// sign is the HMAC of a token's body; the prefix keeps it from meaning
// anything in another protocol that might one day share the key.
func (k *Key) sign(body string) []byte {
	m := hmac.New(sha256.New, k.secret[:])
	m.Write([]byte("askbridge answer token v1\n"))
	m.Write([]byte(body))
	return m.Sum(nil)
}

// Check returns the token's claim when this key signed it, without
// spending it.
func (k *Key) Check(token string) (Claim, error) {
	c, _, err := k.check(token)
	return c, err
}

// check is Check, and the token's signature.
func (k *Key) check(token string) (Claim, string, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 4 {
		return Claim{}, "", ErrForged
	}
	mac, err := b64.DecodeString(parts[3])
	if err != nil || !hmac.Equal(mac, k.sign(strings.Join(parts[:3], "."))) {
		return Claim{}, "", ErrForged
	}
	set, err1 := b64.DecodeString(parts[0])
	option, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || option < 0 {
		return Claim{}, "", ErrForged // signed, yet not one Mint made
	}
	return Claim{Set: string(set), Option: option}, string(mac), nil
}

// Redeem checks the token and spends it: it returns the claim the first
// time, ErrSpent after. use, when not nil, runs before the token is
// spent, under the key's lock; an error from it leaves the token unspent
// and is returned as it is (the set is not pending, say).
func (k *Key) Redeem(token string, use func(Claim) error) (Claim, error) {
	c, sig, err := k.check(token)
	if err != nil {
		return Claim{}, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, done := k.spent[sig]; done {
		return Claim{}, ErrSpent
	}
	if use != nil {
		if err := use(c); err != nil {
			return Claim{}, err
		}
	}
	k.spent[sig] = struct{}{}
	return c, nil
}
