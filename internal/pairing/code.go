package pairing

import (
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"strings"
	"time"
)

// CodeTTL is how long a pairing code is good for.
const CodeTTL = 5 * time.Minute

// maxMisses is how many wrong codes are tried before every code out is
// dropped: a guesser gets that many tries at 40 bits, then nothing.
const maxMisses = 10

// Errors of Redeem.
var (
	ErrBadCode  = errors.New("pairing: no such code, or it expired or was used: ask for a new one (askbridge hub pair)")
	ErrTooMany  = errors.New("pairing: too many wrong codes; every code out was dropped: ask for a new one")
	errNoDevice = errors.New("pairing: no such device")
)

// alphabet is Crockford's base32: no I, L, O or U to misread.
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// NewCode makes a pairing code, good once until it expires: eight
// characters, shown as XXXX-XXXX.
func (d *Devices) NewCode() (code string, expires time.Time) {
	b := make([]byte, 8)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[b[i]&31]
	}
	code = string(b[:4]) + "-" + string(b[4:])
	expires = d.now().Add(CodeTTL)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dropExpired()
	d.codes[codeHash(code)] = expires
	return code, expires
}

// Redeem spends code: nil once, for a code given and not expired.
func (d *Devices) Redeem(code string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dropExpired()
	h := codeHash(code)
	if _, ok := d.codes[h]; ok {
		delete(d.codes, h)
		d.misses = 0
		return nil
	}
	if d.misses++; d.misses >= maxMisses {
		clear(d.codes)
		d.misses = 0
		return ErrTooMany
	}
	return ErrBadCode
}

func (d *Devices) dropExpired() {
	now := d.now()
	for h, exp := range d.codes {
		if !now.Before(exp) {
			delete(d.codes, h)
		}
	}
}

// codeHash is what Devices keeps of a code: typed in lower case, with
// spaces or without the dash, it is the same code.
func codeHash(code string) [32]byte {
	code = strings.ToUpper(code)
	code = strings.Map(func(r rune) rune {
		switch r {
		case '-', ' ':
			return -1
		case 'O':
			return '0'
		case 'I', 'L':
			return '1'
		}
		return r
	}, code)
	return sha256.Sum256([]byte("askbridge pairing code\n" + code))
}
