package desk

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/askbridge/askbridge/internal/pairing"
)

// relyingParty is WebAuthn as the page at r's address does it: the RP ID
// is its host name (a passkey needs a domain name, never an address:
// localhost on this machine, the certificate's name beyond it), the
// origin its scheme and host.
func (s *Server) relyingParty(r *http.Request) (*webauthn.WebAuthn, string, error) {
	origin := "http://" + r.Host
	if r.TLS != nil {
		origin = "https://" + r.Host
	}
	if u := s.publicURL(); u != nil && s.public(r.Host) {
		origin = u.Scheme + "://" + u.Host
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(r.Host); err == nil {
		host = h
	}
	if net.ParseIP(host) != nil {
		return nil, "", fmt.Errorf("a passkey needs a host name, not the address %s: open the page as %s", host, s.URL())
	}
	if origin[:5] == "http:" && host != "localhost" {
		return nil, "", fmt.Errorf("a passkey needs HTTPS (or localhost): %s is plain HTTP", origin)
	}
	wa, err := webauthn.New(&webauthn.Config{RPID: host, RPDisplayName: "askbridge", RPOrigins: []string{origin}})
	return wa, host, err
}

func (s *Server) publicURL() *url.URL {
	u, err := url.Parse(s.opts.PublicURL)
	if s.opts.PublicURL == "" || err != nil || u.Host == "" {
		return nil
	}
	return u
}

// user is a device as WebAuthn sees it: one user per device, with at
// most one passkey.
type user struct {
	id    []byte
	name  string
	creds []webauthn.Credential
}

func (u user) WebAuthnID() []byte                         { return u.id }
func (u user) WebAuthnName() string                       { return u.name }
func (u user) WebAuthnDisplayName() string                { return u.name }
func (u user) WebAuthnCredentials() []webauthn.Credential { return u.creds }

func deviceUser(d pairing.Device) user {
	u := user{id: d.UserHandle, name: "askbridge: " + d.Name}
	if d.Passkey != nil {
		u.creds = []webauthn.Credential{*d.Passkey}
	}
	return u
}

// newUser is a device still pairing: a random user handle of its own.
func newUser(name string) user {
	id := make([]byte, 16)
	rand.Read(id)
	return user{id: id, name: "askbridge: " + name}
}

// uvRequired: every ceremony wants user verification (a fingerprint, a
// face, a PIN), not just a touch: that is the user's presence.
var uvRequired = protocol.VerificationRequired

// errNoUV is an authenticator that did not verify the user.
var errNoUV = errors.New("the authenticator did not verify the user (no fingerprint, face or PIN)")

// errClone is an assertion whose signature counter did not grow past the
// last one seen (while either is non-zero): a second copy of the passkey
// is signing, so neither can be trusted to be the user's.
var errClone = errors.New("the passkey's signature counter went back: it may have been copied; pair this device again")
