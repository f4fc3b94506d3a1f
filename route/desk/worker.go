package desk

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"sync"
	"time"

	"github.com/askbridge/askbridge/internal/alarm"
)

// The page's origin (http://localhost:PORT) is free for anyone while the
// hub is down: another user can bind the port, serve a page there and
// register a service worker of its own, which the browser keeps in front
// of the origin once the hub is back, rewriting the page the user answers
// on. The browser asks the origin for a worker's script again now and
// then (on a navigation, and whenever the page calls update()), with the
// header Service-Worker: script and past every worker. The hub serves one
// worker, /sw.js, byte for byte the same each run; any other script asked
// for as a worker gets unworker.js, which replaces it, unregisters itself,
// and sends the tabs it held to the page again, through a one-time link
// whose answer clears the origin's cache and storage (Clear-Site-Data):
// the squatter's page could read this origin's storage, the session key
// with it, and write the hub key the page holds the server to. Cookies
// are not cleared: Clear-Site-Data clears them for every port of the host
// (other local services' logins), and the cookie alone is no session.
// A worker at /sw.js itself, the squatter's, is replaced by the hub's on
// the same check (its bytes differ), and the hub's worker, once it
// replaced another, reloads the tabs it took over (sw.js).

// workerPath is the only worker the hub serves.
const workerPath = "/sw.js"

// removedParam carries the one-time token of a removal (unworker.js's
// link back to the page).
const removedParam = "worker-removed"

// removalTTL is how long a removal's link clears the origin's storage.
const removalTTL = 5 * time.Minute

// removals are the foreign workers this run replaced: their links not
// yet followed, and the last few, as GET /api/worker shows them.
type removals struct {
	mu     sync.Mutex
	tokens map[string]time.Time
	last   []removal
}

type removal struct {
	Script string    `json:"script"`
	At     time.Time `json:"at"`
}

// workerVersion is the hub's worker's version: its bytes' hash, the same
// for every run of one build, which the page checks its worker against.
var workerVersion = func() string {
	b, _ := static.ReadFile("static/sw.js")
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}()

// workers serves, to a request for a worker's script other than the
// hub's own, the worker that removes it.
func (s *Server) workers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Service-Worker") != "script" || (r.URL.Path == workerPath && r.URL.RawQuery == "") {
			next.ServeHTTP(w, r)
			return
		}
		s.removeWorker(w, r)
	})
}

// removeWorker answers a foreign worker's script with unworker.js, and
// says so in the log.
func (s *Server) removeWorker(w http.ResponseWriter, r *http.Request) {
	script, err := static.ReadFile("static/unworker.js")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	b := make([]byte, 16)
	rand.Read(b)
	token := base64.RawURLEncoding.EncodeToString(b)
	s.removed.mu.Lock()
	if s.removed.tokens == nil {
		s.removed.tokens = map[string]time.Time{}
	}
	for t, at := range s.removed.tokens {
		if time.Since(at) > removalTTL {
			delete(s.removed.tokens, t)
		}
	}
	s.removed.tokens[token] = time.Now()
	s.removed.last = append(s.removed.last, removal{Script: r.URL.RequestURI(), At: time.Now().UTC().Truncate(time.Second)})
	if len(s.removed.last) > 5 {
		s.removed.last = s.removed.last[1:]
	}
	s.removed.mu.Unlock()
	// Counted, and logged at most once a second with the count (a page
	// could ask for foreign scripts in a loop); askbridge hub's summary
	// line says how many.
	alarm.Note(s.logger, alarm.Worker, "script", r.URL.RequestURI(), "why", "desk: removed a service worker this page did not serve: another program held this address while askbridge was down")
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	// The registration's scope may be wider than the script's folder: the
	// new script must allow it, or the browser keeps the old one.
	w.Header().Set("Service-Worker-Allowed", "/")
	w.Write(bytes.ReplaceAll(script, []byte("REMOVAL_TOKEN"), []byte(token)))
}

// clearsSite says whether r is a removal's link back to the page, once;
// its answer then clears the origin's cache and storage.
func (s *Server) clearsSite(r *http.Request) bool {
	token := r.URL.Query().Get(removedParam)
	if token == "" {
		return false
	}
	s.removed.mu.Lock()
	defer s.removed.mu.Unlock()
	at, ok := s.removed.tokens[token]
	delete(s.removed.tokens, token)
	return ok && time.Since(at) <= removalTTL
}

// serviceWorker: GET /sw.js, the hub's own worker.
func (s *Server) serviceWorker(w http.ResponseWriter, r *http.Request) {
	script, err := static.ReadFile("static/sw.js")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Write(bytes.ReplaceAll(script, []byte("WORKER_VERSION"), []byte(workerVersion)))
}

// workerState: GET /api/worker, no session. The version of the hub's
// worker, which the page checks its own against (worker.js), and the
// workers this run removed.
func (s *Server) workerState(w http.ResponseWriter, r *http.Request) {
	s.removed.mu.Lock()
	last := append([]removal{}, s.removed.last...)
	s.removed.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"script": workerPath, "version": workerVersion, "removed": last})
}
