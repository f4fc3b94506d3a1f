package pairing

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
)

// LinkLen is what a pairing link adds to its code: 14 more letters (70
// bits, a MAC of the code under a key of this run's), so the code in a
// link, or its QR code, is 130 bits that no one guesses. Redeem looks at
// it before any wait: a flood of wrong codes from the user's own source
// (the agent's, which shares the user's uid and loopback address) never
// stops the link that askbridge hub pair or the hub's terminal shows.
const LinkLen = 14

// Link is code as a pairing link carries it: code, a dash, its LinkLen
// letters. Typed or followed, it redeems as code does, but at once.
func (d *Devices) Link(code string) string {
	c := &d.codes
	c.mu.Lock()
	defer c.mu.Unlock()
	return code + "-" + c.tail(normal(code))
}

// tail is the letters that make short (a normal code) a link's; c.mu
// held.
func (c *codeBook) tail(short string) string {
	if c.linkKey == nil {
		c.linkKey = make([]byte, 32)
		rand.Read(c.linkKey)
	}
	mac := hmac.New(sha256.New, c.linkKey)
	mac.Write([]byte(short))
	sum := mac.Sum(nil)
	b := make([]byte, LinkLen)
	for i := range b {
		b[i] = alphabet[sum[i]&31]
	}
	return string(b)
}

// linked is the code in link when link is a link's code (Link), with its
// tail right; c.mu held.
func (c *codeBook) linked(link string) (string, bool) {
	n := normal(link)
	if len(n) != CodeLen+LinkLen {
		return "", false
	}
	short := n[:CodeLen]
	return short, hmac.Equal([]byte(n[CodeLen:]), []byte(c.tail(short)))
}
