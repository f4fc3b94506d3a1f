package answertoken

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMintCheckRedeemOnce(t *testing.T) {
	k := New()
	tok := k.Mint("q7", 2)
	assert.Regexp(t, `^[A-Za-z0-9_.-]+$`, tok, "fits a URL path as it is")
	c, err := k.Check(tok)
	require.NoError(t, err)
	assert.Equal(t, Claim{Set: "q7", Option: 2}, c)
	assert.NotEqual(t, tok, k.Mint("q7", 2), "each token is new")

	c, err = k.Redeem(tok, nil)
	require.NoError(t, err)
	assert.Equal(t, Claim{Set: "q7", Option: 2}, c)
	_, err = k.Redeem(tok, nil)
	assert.ErrorIs(t, err, ErrSpent)
}

// An altered token, or one another askbridge signed, is refused; so is a
// replay that spells the signature differently.
func TestForgeries(t *testing.T) {
	k := New()
	tok := k.Mint("q1", 0)
	parts := strings.Split(tok, ".")
	other := New().Mint("q1", 0)
	swap := func(i int, v string) string {
		p := append([]string(nil), parts...)
		p[i] = v
		return strings.Join(p, ".")
	}
	for name, bad := range map[string]string{
		"another key":     other,
		"other option":    swap(1, "1"),
		"other set":       swap(0, "cTI"), // "q2"
		"other nonce":     swap(2, strings.Split(k.Mint("q1", 0), ".")[2]),
		"no signature":    strings.Join(parts[:3], "."),
		"empty":           "",
		"extra part":      tok + ".x",
		"padding bits":    swap(3, parts[3][:len(parts[3])-1]+flip(parts[3][len(parts[3])-1])),
		"negative option": swap(1, "-1"),
	} {
		_, err := k.Check(bad)
		assert.ErrorIs(t, err, ErrForged, name)
		_, err = k.Redeem(bad, nil)
		assert.ErrorIs(t, err, ErrForged, name)
	}
	_, err := k.Redeem(tok, nil)
	assert.NoError(t, err, "the real token still works")
}

// flip changes the low bits of a base64 digit, which the last digit of a
// 32-byte value does not use.
func flip(c byte) string {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	i := strings.IndexByte(digits, c)
	return string(digits[i^1])
}

// use refusing leaves the token unspent; two redeemers at once: one wins.
func TestRedeemUse(t *testing.T) {
	k := New()
	tok := k.Mint("q1", 1)
	no := errors.New("not pending")
	_, err := k.Redeem(tok, func(Claim) error { return no })
	assert.ErrorIs(t, err, no)

	var wins atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := k.Redeem(tok, func(Claim) error { return nil }); err == nil {
				wins.Add(1)
			} else {
				assert.ErrorIs(t, err, ErrSpent)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), wins.Load())
}
