package desk

import (
	"bytes"
	"net/http"

	"github.com/askbridge/askbridge/permission"
)

// Names of the page, one for each thing, as the CLI and the docs say them:
// the desk is one askbridge's page; the hub's page is every agent's
// (askbridge hub). "inbox" is askbridge inbox, the terminal's, alone.
const (
	DeskName = "answer desk"
	HubName  = "hub"
)

// pageName is what the page calls itself.
func (s *Server) pageName() string {
	if s.opts.Hub {
		return HubName
	}
	return DeskName
}

// source is the route a request to the API came by, as the history records
// it: the terminal inbox (LocalHandler), else this page.
func (s *Server) source(r *http.Request) permission.Source {
	switch {
	case Local(r):
		return permission.SourceInbox
	case s.opts.Hub:
		return permission.SourceHub
	}
	return permission.SourceDesk
}

// index serves the page named as it is from its first paint, paired or
// not: the tab's title and the heading.
func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	page, err := static.ReadFile("static/index.html")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if s.opts.Hub {
		page = bytes.ReplaceAll(page, []byte("askbridge · "+DeskName), []byte("askbridge · "+HubName))
		page = bytes.ReplaceAll(page, []byte(`<span class="sub">`+DeskName+`</span>`), []byte(`<span class="sub">`+HubName+`</span>`))
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	if s.clearsSite(r) { // a foreign worker was removed (worker.go)
		w.Header().Set("Clear-Site-Data", `"cache", "storage"`)
	}
	w.Write(page)
}
