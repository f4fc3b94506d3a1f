//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
	"github.com/askbridge/askbridge/route/webpush"
	"github.com/askbridge/askbridge/route/webpush/webpushtest"
)

// pushDevice is the paired device subscribed to the pushes.
const pushDevice = "decisionbench-device"

// measurePushes times n questions from being asked at an askbridge's
// board until the Web Push request for each reached the test push
// service. The hub is in this process: the hub binary pushes only to
// public https endpoints, and the test service's loopback address is
// reachable only through webpush.Options.Test, which no flag sets (that
// is the point of it). So this is the hub's own parts, wired as
// hubserve's startPush wires them: hub.Hub on its real socket, with an
// askbridge reporting through hub.Report, and a webpush.Pusher on the
// hub's board with its VAPID keys and store in files. Each set is then
// answered and its "decided" push awaited before the next is asked.
func measurePushes(ctx context.Context, dir string, n int) ([]time.Duration, error) {
	t := &cleanups{}
	defer t.run()
	svc := webpushtest.Start(t)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	sock := filepath.Join(dir, "push-hub.sock")
	h, hb, wait, err := startPushHub(ctx, dir, sock, svc)
	if err != nil {
		return nil, err
	}
	defer func() { cancel(); wait() }()

	asker := permission.NewBoard()
	hub.Report(ctx, asker, sock, hub.Instance{Agent: "decisionbench", PID: os.Getpid(), CWD: dir}, nil)
	for deadline := time.Now().Add(10 * time.Second); len(h.Instances()) < 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the askbridge did not connect to the in-process hub within 10s")
		}
	}
	var took []time.Duration
	for i := range n {
		q := fmt.Sprintf("Push %d: which database?", i)
		asked := time.Now()
		question := permission.Question{Question: q, Header: "Database",
			Options: []permission.Option{{Label: "Postgres", Description: "relational"}, {Label: "SQLite", Description: "embedded"}}}
		tk := asker.Open(permission.Request{SessionID: "s1", Round: i + 1, Questions: []permission.Question{question}})
		d, m, err := delivered(svc, webpush.Asked, 2*i)
		if err != nil {
			return nil, err
		}
		if m.Body != q {
			return nil, fmt.Errorf("push %d carried %q, not its question", i, m.Body)
		}
		took = append(took, d.At.Sub(asked))
		// Answered at the hub, as on its page: the askbridge has it, and
		// the device's notification is withdrawn by a second push.
		if err := hb.Settle(m.ID, permission.Result{Answers: []permission.Answered{{Question: question, Answer: permission.Answer{Labels: []string{"Postgres"}}, Path: "questions[0]"}}}, permission.ByEditor()); err != nil {
			return nil, err
		}
		if _, _, err := delivered(svc, webpush.Decided, 2*i+1); err != nil {
			return nil, err
		}
		select {
		case <-tk.Done():
		case <-time.After(10 * time.Second):
			return nil, fmt.Errorf("the answer to push %d did not reach the askbridge", i)
		}
	}
	return took, nil
}

// delivered waits for the service's k-th delivery (from 0), decrypted,
// and checks its message type; it fails on anything the service refused.
func delivered(svc *webpushtest.Service, typ string, k int) (webpushtest.Delivery, webpush.Message, error) {
	var m webpush.Message
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		got, bad := svc.Got()
		if len(bad) > 0 {
			return webpushtest.Delivery{}, m, fmt.Errorf("the push service refused a push: %s", bad[0])
		}
		if len(got) <= k {
			continue
		}
		if err := json.Unmarshal(got[k].Payload, &m); err != nil || m.Type != typ {
			return webpushtest.Delivery{}, m, fmt.Errorf("push %d was %s, want type %q", k, got[k].Payload, typ)
		}
		return got[k], m, nil
	}
	return webpushtest.Delivery{}, m, fmt.Errorf("push %d (%s) did not reach the push service within 10s", k, typ)
}

// cleanups is the push service's test, for a program: what it asks to
// be done at the end, done by run.
type cleanups struct{ fns []func() }

func (c *cleanups) Cleanup(f func())  { c.fns = append(c.fns, f) }
func (c *cleanups) Fatal(args ...any) { panic(fmt.Sprint(args...)) }
func (c *cleanups) run() {
	for i := len(c.fns) - 1; i >= 0; i-- {
		c.fns[i]()
	}
}

// startPushHub serves a hub on sock, in this process, whose board's sets
// are pushed to svc until ctx ends (wait waits for the pushes under way).
func startPushHub(ctx context.Context, dir, sock string, svc *webpushtest.Service) (h *hub.Hub, hb *permission.Board, wait func(), err error) {
	ln, err := hub.Listen(sock)
	if err != nil {
		return nil, nil, nil, err
	}
	hb = permission.NewBoard()
	h = hub.New(hb, nil)
	go h.Serve(ctx, ln)
	keys, err := webpush.LoadKeys(filepath.Join(dir, "push-vapid.json"))
	if err != nil {
		return nil, nil, nil, err
	}
	store, err := webpush.OpenStore(filepath.Join(dir, "push-subs.json"))
	if err != nil {
		return nil, nil, nil, err
	}
	if err := store.Set(pushDevice, svc.Subscribe("/push/"+pushDevice)); err != nil {
		return nil, nil, nil, err
	}
	addr, roots := svc.Trust()
	p := webpush.New(webpush.Options{Keys: keys, Store: store, Logger: slog.New(slog.DiscardHandler),
		Paired: func() []string { return []string{pushDevice} },
		Where: func(id string) string {
			p, _ := hb.Get(id)
			if p.Origin == nil {
				return ""
			}
			return strings.TrimPrefix(p.Origin.Agent+" · "+p.Origin.Folder, " · ")
		},
		Test: webpush.TestService{Addr: addr, Roots: roots}})
	return h, hb, p.Start(ctx, hb), nil
}
