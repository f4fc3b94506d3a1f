package main

import (
	"net/url"
	"os"
	"strings"
)

// A running hub keeps its page's address (no credential) beside its socket,
// so that a second `askbridge hub` can say where the first one serves.

func hubWherePath(socket string) string { return socket + ".page" }

// keepHubWhere writes page's address, without query or user, beside socket;
// the returned func removes it when the hub stops.
func keepHubWhere(socket, page string) func() {
	u, err := url.Parse(page)
	if err != nil {
		return func() {}
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	path := hubWherePath(socket)
	if os.WriteFile(path, []byte(u.String()+"\n"), 0o600) != nil {
		return func() {}
	}
	return func() { os.Remove(path) }
}

// hubWhere is where the hub on socket said it serves its page, or "".
func hubWhere(socket string) string {
	b, err := os.ReadFile(hubWherePath(socket))
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery != "" {
		return ""
	}
	return s
}
