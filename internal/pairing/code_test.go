package pairing

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clock is a Devices whose time the test moves.
func clock() (*Devices, *time.Time) {
	d := Memory()
	now := time.Now()
	d.now = func() time.Time { return now }
	return d, &now
}

// Anyone's wrong codes used to drop every code out after ten: another
// user or a network peer kept the owner from ever pairing. Now they slow
// their own source only, and the owner's code works.
func TestWrongCodesSlowTheirSourceOnly(t *testing.T) {
	d, now := clock()
	code, _ := d.NewCode()
	lookedAt := 0
	for i := range 1000 { // 10 s of trying
		err := d.Redeem(fmt.Sprintf("0000-0000-%04d", i), "198.51.100.7")
		var slow *SlowDown
		if !errors.As(err, &slow) {
			require.ErrorIs(t, err, ErrBadCode)
			lookedAt++
		}
		*now = now.Add(10 * time.Millisecond)
	}
	assert.Equal(t, freeMisses+4, lookedAt, "the free tries, then after 1, 2 and 4 s")
	require.NoError(t, d.Redeem(code, "127.0.0.1 uid 1000"), "the owner's code, from the owner's source")
}

// A source past its free tries waits, doubling, before any try of its is
// looked at, the right code included; then it may try again.
func TestASlowedSourceWaitsThenTriesAgain(t *testing.T) {
	d, now := clock()
	code, _ := d.NewCode()
	for range freeMisses {
		require.ErrorIs(t, d.Redeem("0000-0000-0000", "x"), ErrBadCode)
	}
	var slow *SlowDown
	for _, wait := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		require.ErrorIs(t, d.Redeem("0000-0000-0000", "x"), ErrBadCode)
		require.ErrorAs(t, d.Redeem(code, "x"), &slow, "waiting: not even the right code is looked at")
		assert.Equal(t, wait, slow.Retry)
		*now = now.Add(slow.Retry)
	}
	require.NoError(t, d.Redeem(code, "x"))
	assert.ErrorIs(t, d.Redeem("0000-0000-0000", "x"), ErrBadCode, "a right code forgives the source's misses")
}

// A page's "show a new code" is limited per source: a flood of sources
// asking never drops the code the user asked for on the hub's socket,
// and one source's asking never refuses another's.
func TestPageCodesAreLimitedPerSourceAndNeverDropTheUsers(t *testing.T) {
	d, now := clock()
	mine, _ := d.NewCode()
	for i := range newCodeBurst {
		_, _, err := d.NewCodeFrom("203.0.113.1")
		require.NoError(t, err, "ask %d", i)
	}
	_, _, err := d.NewCodeFrom("203.0.113.1")
	var slow *SlowDown
	require.ErrorAs(t, err, &slow)
	_, _, err = d.NewCodeFrom("127.0.0.1 uid 1000")
	require.NoError(t, err, "another source is not slowed")
	for i := range 2 * maxPageCodes {
		_, _, err := d.NewCodeFrom(fmt.Sprintf("10.0.%d.%d", i/256, i%256))
		require.NoError(t, err)
	}
	d.codes.mu.Lock()
	assert.LessOrEqual(t, len(d.codes.codes), maxPageCodes+1)
	d.codes.mu.Unlock()
	*now = now.Add(newCodeEvery)
	_, _, err = d.NewCodeFrom("203.0.113.1")
	require.NoError(t, err, "after a while the source may ask again")
	require.NoError(t, d.Redeem(mine, "127.0.0.1 uid 1000"), "the user's own code survived the flood")
}

// A code is CodeLen letters of a 32-letter alphabet: 60 bits.
func TestCodesAreLongEnoughToNeedNoLockout(t *testing.T) {
	d := Memory()
	seen := map[string]bool{}
	for range 1000 {
		c, _ := d.NewCode()
		assert.Len(t, c, CodeLen+2)
		assert.False(t, seen[c])
		seen[c] = true
	}
	assert.Len(t, alphabet, 32)
}

// The code a link carries (askbridge hub pair's, the hub's terminal's, the
// QR code's) is 130 bits: it redeems at once, even from a source told to
// wait, such as the user's own when the agent (same uid, same loopback
// address) floods wrong codes. A link with a wrong tail is just a code.
func TestALinkWorksWhileItsSourceWaits(t *testing.T) {
	d, _ := clock()
	code, _ := d.NewCode()
	link := d.Link(code)
	assert.Regexp(t, `^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{14}$`, link)
	for i := range freeMisses + 3 {
		d.Redeem(fmt.Sprintf("0000-0000-%04d", i), "127.0.0.1 uid 1000")
	}
	var slow *SlowDown
	require.ErrorAs(t, d.Redeem(code, "127.0.0.1 uid 1000"), &slow, "the short code waits")
	forged := link[:len(link)-1] + map[bool]string{true: "0", false: "1"}[link[len(link)-1] != '0']
	require.ErrorAs(t, d.Redeem(forged, "127.0.0.1 uid 1000"), &slow, "a wrong tail is no link: it waits as any code")
	require.NoError(t, d.Redeem(strings.ToLower(link), "127.0.0.1 uid 1000"), "the link, at once")
	assert.ErrorIs(t, d.Redeem(link, "elsewhere"), ErrBadCode, "once")
}
