package pairing

import (
	"fmt"
	"time"
)

// A source is who tries codes or asks for them: a remote address (an IPv6
// /64), on loopback with the caller's uid where the system says it. Its
// wrong codes slow it down, and it alone.
const (
	// freeMisses wrong codes cost a source nothing (typos).
	freeMisses = 5
	// Each wrong code past freeMisses doubles the wait before the
	// source's next try, from a second up to maxWait.
	maxWait = time.Minute
	// forgetAfter: a source quiet that long starts afresh.
	forgetAfter = 15 * time.Minute
	// A source asks for up to newCodeBurst codes at once, then one every
	// newCodeEvery.
	newCodeBurst = 3
	newCodeEvery = 10 * time.Second
	// maxSources bounds the sources remembered; past it the quietest are
	// forgotten (their next tries are then free again: a flood of
	// sources gains a few guesses each, never a lockout of others).
	maxSources = 1 << 16
)

// SlowDown is a source told to wait before it tries again.
type SlowDown struct {
	Retry time.Duration
	What  string
}

func (e *SlowDown) Error() string {
	return fmt.Sprintf("pairing: %s; try again in %s", e.What, max(time.Second, e.Retry.Round(time.Second)))
}

// source is one source's record; codeBook.mu guards it.
type source struct {
	misses  int
	until   time.Time // no try looked at before
	last    time.Time // its last wrong code or code asked for
	tokens  float64   // codes it may ask for now
	refresh time.Time // when tokens was last refilled
}

// source is the record of key, made on first use; c.mu held.
func (c *codeBook) source(key string, now time.Time) *source {
	if c.sources == nil {
		c.sources = map[string]*source{}
	}
	s, ok := c.sources[key]
	if ok && now.Sub(s.last) > forgetAfter && !now.Before(s.until) {
		ok = false
	}
	if !ok {
		if len(c.sources) >= maxSources {
			c.forget(now)
		}
		s = &source{tokens: newCodeBurst, refresh: now, last: now}
		c.sources[key] = s
	}
	return s
}

// forget drops the sources quiet for forgetAfter, and if none is, about
// a quarter of them; c.mu held.
func (c *codeBook) forget(now time.Time) {
	n := 0
	for k, s := range c.sources {
		if now.Sub(s.last) > forgetAfter && !now.Before(s.until) {
			delete(c.sources, k)
			n++
		}
	}
	for k := range c.sources { // random order
		if n >= maxSources/4 {
			return
		}
		delete(c.sources, k)
		n++
	}
}

// wait says how long s must wait before a try is looked at (nil: none).
func (s *source) wait(now time.Time) error {
	if now.Before(s.until) {
		return &SlowDown{Retry: s.until.Sub(now), What: "too many wrong pairing codes from this address"}
	}
	return nil
}

// missed counts a wrong code.
func (s *source) missed(now time.Time) {
	s.misses++
	s.last = now
	if over := s.misses - freeMisses; over > 0 {
		wait := maxWait
		if over < 7 {
			wait = min(maxWait, time.Second<<(over-1))
		}
		s.until = now.Add(wait)
	}
}

// NewCodeFrom makes a pairing code a page at source asked for (POST
// /pair/new), to be shown on the user's terminal: a source gets a few at
// once, then one every newCodeEvery; other sources are not limited by
// its asking.
func (d *Devices) NewCodeFrom(source string) (code string, expires time.Time, err error) {
	c := &d.codes
	now := d.now()
	c.mu.Lock()
	s := c.source(source, now)
	s.tokens = min(newCodeBurst, s.tokens+now.Sub(s.refresh).Seconds()/newCodeEvery.Seconds())
	s.refresh = now
	if s.tokens < 1 {
		retry := time.Duration((1 - s.tokens) * float64(newCodeEvery))
		c.mu.Unlock()
		return "", time.Time{}, &SlowDown{Retry: retry, What: "a code was shown a moment ago at this page's asking: look at askbridge's terminal"}
	}
	s.tokens--
	s.last = now
	c.mu.Unlock()
	code, expires = d.newCode(true)
	return code, expires, nil
}
