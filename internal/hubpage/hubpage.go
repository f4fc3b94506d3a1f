package hubpage

import (
	"net/url"
	"os"
	"strings"
)

func pagePath(socket string) string { return socket + ".page" }

// Keep writes page's address, without query or user, beside socket;
// the returned func removes it when the hub stops.
func Keep(socket, page string) func() {
	u, err := url.Parse(page)
	if err != nil {
		return func() {}
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	path := pagePath(socket)
	if os.WriteFile(path, []byte(u.String()+"\n"), 0o600) != nil {
		return func() {}
	}
	return func() { os.Remove(path) }
}

// Read is where the hub on socket said it serves its page, or "".
func Read(socket string) string {
	b, err := os.ReadFile(pagePath(socket))
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery != "" {
		return ""
	}
	return s
}
