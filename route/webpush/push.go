package webpush

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	wp "github.com/SherClockHolmes/webpush-go"

	"github.com/askbridge/askbridge/permission"
)

// Message is what a push carries, for the page's service worker (sw.js):
// a set that waits ("asked"), or one decided anywhere ("decided"), whose
// notification (by Tag) goes.
type Message struct {
	Type    string          `json:"type"`
	ID      string          `json:"id"`
	Tag     string          `json:"tag"`
	Kind    permission.Kind `json:"kind,omitempty"`
	Title   string          `json:"title,omitempty"`
	Body    string          `json:"body,omitempty"`
	Choices []string        `json:"choices,omitempty"`
	URL     string          `json:"url,omitempty"` // the card, on the page
}

// Message types.
const (
	Asked   = "asked"
	Decided = "decided"
)

// Options configure a Pusher.
type Options struct {
	Keys  Keys
	Store *Store
	// Paired lists the ids of the devices paired now: only those get
	// pushes, and the others' subscriptions are dropped.
	Paired func() []string
	// DeviceOf is the paired device making a request (the page's API).
	DeviceOf func(*http.Request) string
	// Where names where a set comes from ("Claude Code · ~/src/api"), for
	// the notification's title; nil: nothing.
	Where func(id string) string
	// Bare (the hub's --push-content none) sends no word of the set: a
	// push says only that a question or an approval waits, and the page
	// shows the card when the notification is tapped.
	Bare   bool
	Logger *slog.Logger
	// Test is for tests alone (see TestService); the hub leaves it zero.
	Test TestService
}

// Pusher sends the board's sets to the subscribed devices.
type Pusher struct {
	opts   Options
	guard  guard
	client *http.Client // through the guard
	wg     sync.WaitGroup
}

// New returns a Pusher; Run starts it.
func New(opts Options) *Pusher {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	g := guard{test: opts.Test, resolver: net.DefaultResolver}
	return &Pusher{opts: opts, guard: g, client: g.client()}
}

// Start pushes board's changes from now until ctx ends; wait waits, once
// ctx has ended, for the pushes under way.
func (p *Pusher) Start(ctx context.Context, board *permission.Board) (wait func()) {
	events := board.Subscribe(ctx) // now: no set asked after Start is missed
	done := make(chan struct{})
	go func() {
		defer close(done)
		prune := time.NewTicker(time.Minute) // a revoked device's subscription goes soon, pushes or not
		defer prune.Stop()
		for {
			var ev permission.Event
			var ok bool
			select {
			case ev, ok = <-events:
			case <-prune.C:
				p.opts.Store.Keep(p.paired())
				continue
			}
			if !ok {
				return
			}
			switch {
			case ev.Type == permission.EventAsked && ev.Pending.State == permission.StatePending:
				p.Send(p.asked(ev.Pending))
			case ev.Type == permission.EventReplied || ev.Type == permission.EventRejected:
				p.Send(Message{Type: Decided, ID: ev.Pending.ID, Tag: tag(ev.Pending.ID)})
			}
		}
	}()
	return func() {
		<-done
		p.wg.Wait()
	}
}

// paired is the set of the devices paired now.
func (p *Pusher) paired() map[string]bool {
	out := map[string]bool{}
	for _, id := range p.opts.Paired() {
		out[id] = true
	}
	return out
}

func tag(id string) string { return "askbridge-" + id }

// maxText bounds a notification's text: a push's payload is at most 4 KiB.
const maxText = 600

// asked is the push of a set that waits: its first question (or the
// command an approval would run) and the choices.
func (p *Pusher) asked(s permission.Pending) Message {
	m := Message{Type: Asked, ID: s.ID, Tag: tag(s.ID), Kind: s.Kind, URL: "/#q=" + s.ID}
	if p.opts.Bare {
		return m
	}
	if len(s.Asking) > 0 {
		q := s.Asking[0].Question
		m.Title, m.Body = q.Header, q.Question
		for _, o := range q.Options {
			m.Choices = append(m.Choices, short(o.Label, 60))
		}
		if n := len(s.Asking); n > 1 {
			m.Body += " (and " + plural(n-1) + ")"
		}
	}
	if s.Approval != nil {
		var tc struct {
			Title    string `json:"title"`
			RawInput struct {
				Command string `json:"command"`
			} `json:"rawInput"`
		}
		json.Unmarshal(s.Approval.ToolCall, &tc)
		m.Title = "Approve? " + tc.Title
		if tc.RawInput.Command != "" {
			m.Body = tc.RawInput.Command
		}
	}
	if p.opts.Where != nil {
		if w := p.opts.Where(s.ID); w != "" {
			m.Title = strings.TrimSpace(m.Title + " — " + w)
		}
	}
	m.Title, m.Body = short(m.Title, 120), short(m.Body, maxText)
	return m
}

func plural(n int) string {
	if n == 1 {
		return "1 more question"
	}
	return strconv.Itoa(n) + " more questions"
}

func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Send pushes m to every subscribed device still paired, each on a
// goroutine of its own; a subscription its push service says is gone
// (404, 410) is dropped.
func (p *Pusher) Send(m Message) {
	body, err := json.Marshal(m)
	if err != nil {
		return
	}
	for device, sub := range p.opts.Store.Keep(p.paired()) {
		p.wg.Go(func() { p.push(device, sub, m, body) })
	}
}

func (p *Pusher) push(device string, sub Subscription, m Message, body []byte) {
	if _, err := checkURL(sub.Endpoint); err != nil {
		// A file of an older askbridge may hold one the page's API now refuses.
		p.opts.Logger.Warn("web push: a subscription refused; dropped", "device", device, "err", err)
		p.opts.Store.Remove(device)
		return
	}
	urgency, ttl := wp.UrgencyHigh, 12*3600
	if m.Type == Decided {
		urgency = wp.UrgencyNormal
	}
	// webpush-go appends its padding to the message it is given: each
	// push gets a slice with no room beyond it, so that append copies.
	resp, err := wp.SendNotificationWithContext(context.Background(), body[:len(body):len(body)], &sub, &wp.Options{
		HTTPClient: p.client, Subscriber: "https://github.com/askbridge/askbridge",
		VAPIDPublicKey: p.opts.Keys.Public, VAPIDPrivateKey: p.opts.Keys.Private,
		TTL: ttl, Urgency: urgency, Topic: m.Tag, // a later push of the set replaces one not delivered yet
	})
	if err != nil {
		p.opts.Logger.Warn("web push: not sent", "device", device, "set", m.ID, "err", err)
		return
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		p.opts.Logger.Info("web push: the subscription expired; dropped", "device", device)
		p.opts.Store.Remove(device)
	case resp.StatusCode/100 != 2:
		p.opts.Logger.Warn("web push: refused", "device", device, "set", m.ID, "status", resp.StatusCode, "body", string(bytes.TrimSpace(msg)))
	default:
		p.opts.Logger.Debug("web push: sent", "device", device, "set", m.ID, "type", m.Type)
	}
}
