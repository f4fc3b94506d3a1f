package pairing

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"strings"
	"sync"
	"time"
)

// CodeTTL is how long a pairing code is good for.
const CodeTTL = 5 * time.Minute

// CodeLen is a code's length in characters of a 32-letter alphabet: 60
// bits, shown as XXXX-XXXX-XXXX. Long enough that no lockout is needed:
// a code is good once for CodeTTL, and a source's guesses are slowed
// (limit.go) to about one a minute, so 10^6 sources guessing for a year,
// with every code a page may have out, find one with odds below 10^-5
// (docs/security.md works it out).
const CodeLen = 12

// maxPageCodes bounds the codes out that pages asked for (NewCodeFrom):
// past it the oldest of them is dropped, so a flood of sources asking
// multiplies a guesser's odds by 17 at most. Codes the user asked for on
// the hub's socket or terminal (NewCode) are never dropped for others'.
const maxPageCodes = 16

// Errors of Redeem and NewCodeFrom.
var (
	ErrBadCode  = errors.New("pairing: no such code, or it expired or was used: ask for a new one (askbridge hub pair)")
	errNoDevice = errors.New("pairing: no such device")
)

// alphabet is Crockford's base32: no I, L, O or U to misread.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// codeBook is the codes out and, per source, the wrong codes tried and
// the codes asked for.
type codeBook struct {
	mu      sync.Mutex
	codes   map[[32]byte]codeOut
	sources map[string]*source
	linkKey []byte // link.go
}

type codeOut struct {
	expires time.Time
	page    bool // asked for by a page: dropped first past maxPageCodes
}

// NewCode makes a pairing code for the user (the hub's socket or
// terminal), good once until it expires: CodeLen characters, shown as
// XXXX-XXXX-XXXX. No one's wrong guesses or page requests drop it.
func (d *Devices) NewCode() (code string, expires time.Time) {
	return d.newCode(false)
}

func (d *Devices) newCode(page bool) (string, time.Time) {
	b := make([]byte, CodeLen)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[b[i]&31]
	}
	code := string(b[:4]) + "-" + string(b[4:8]) + "-" + string(b[8:])
	expires := d.now().Add(CodeTTL)
	c := &d.codes
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropExpired(d.now())
	if c.codes == nil {
		c.codes = map[[32]byte]codeOut{}
	}
	if page {
		c.dropOldestPage()
	}
	c.codes[codeHash(code)] = codeOut{expires: expires, page: page}
	return code, expires
}

// Redeem spends code, tried by source (an address, a uid: limit.go): nil
// once, for a code given and not expired. A source that tried too many
// wrong codes waits (a *SlowDown error) before its next try is even
// looked at; no other source is slowed, and no code is dropped.
func (d *Devices) Redeem(code, source string) error {
	c := &d.codes
	c.mu.Lock()
	defer c.mu.Unlock()
	now := d.now()
	c.dropExpired(now)
	if short, ok := c.linked(code); ok { // unguessable: no wait (link.go)
		if _, ok := c.codes[codeHash(short)]; ok {
			delete(c.codes, codeHash(short))
			return nil
		}
	}
	src := c.source(source, now)
	if err := src.wait(now); err != nil {
		return err
	}
	h := codeHash(code)
	if _, ok := c.codes[h]; ok {
		delete(c.codes, h)
		src.misses = 0
		return nil
	}
	src.missed(now)
	return ErrBadCode
}

func (c *codeBook) dropExpired(now time.Time) {
	for h, out := range c.codes {
		if !now.Before(out.expires) {
			delete(c.codes, h)
		}
	}
}

// dropOldestPage makes room for one more page code; c.mu held.
func (c *codeBook) dropOldestPage() {
	n, oldest, first := 0, [32]byte{}, time.Time{}
	for h, out := range c.codes {
		if !out.page {
			continue
		}
		n++
		if first.IsZero() || out.expires.Before(first) {
			oldest, first = h, out.expires
		}
	}
	if n >= maxPageCodes {
		delete(c.codes, oldest)
	}
}

// codeHash is what Devices keeps of a code: typed in lower case, with
// spaces or without the dashes, it is the same code.
func codeHash(code string) [32]byte {
	return sha256.Sum256([]byte("askbridge pairing code\n" + normal(code)))
}

// normal is code as the user meant it: upper case, without dashes or
// spaces, O read as 0 and I or L as 1.
func normal(code string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', ' ':
			return -1
		case 'O':
			return '0'
		case 'I', 'L':
			return '1'
		}
		return r
	}, strings.ToUpper(code))
}
