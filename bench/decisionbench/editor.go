//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// bridge is `askbridge -- decisionbench agent N`, with this process as its
// editor: it opens a session and prompts once, answers nothing askbridge
// asks it (the page decides), and collects when the agent had each answer.
type bridge struct {
	cmd       *exec.Cmd
	in        io.WriteCloser
	responses chan rpc     // to the editor's requests
	arrived   chan arrival // the agent's reports
	said      chan string  // the agent's other words (a wrong answer)
}

type arrival struct {
	i  int
	at time.Time
}

// startBridge starts askbridge in dir, reporting to the hub at sock, with
// approvals for the hub alone.
func startBridge(bin, dir, sock, self string, n int) (*bridge, error) {
	cmd := exec.Command(bin, "--approvals", "desk", "--hub", sock, "--log-level", "warn", "--max-rounds", "0", "--", self, agentArg, strconv.Itoa(n))
	cmd.Dir, cmd.Stderr = dir, os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	b := &bridge{cmd: cmd, in: in, responses: make(chan rpc, 4), arrived: make(chan arrival, n), said: make(chan string, 16)}
	go b.read(out)
	return b, nil
}

func (b *bridge) read(out io.Reader) {
	defer close(b.responses)
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m rpc
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch {
		case m.Method == "" && m.ID != nil:
			b.responses <- m
		case m.Method == "session/update":
			var p struct {
				Update struct {
					SessionUpdate string
					Content       struct{ Text string }
				}
			}
			json.Unmarshal(m.Params, &p)
			if p.Update.SessionUpdate != "agent_message_chunk" {
				continue
			}
			text := p.Update.Content.Text
			var i int
			var ns int64
			if rest, ok := strings.CutPrefix(text, arrivedPrefix); ok {
				if _, err := fmt.Sscan(rest, &i, &ns); err == nil {
					b.arrived <- arrival{i: i, at: time.Unix(0, ns)}
					continue
				}
			}
			select {
			case b.said <- text:
			default:
			}
		}
	}
}

// call sends a request and waits for its response.
func (b *bridge) call(ctx context.Context, id int, method string, params any) (json.RawMessage, error) {
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if _, err := b.in.Write(append(line, '\n')); err != nil {
		return nil, err
	}
	return b.response(ctx, id, 20*time.Second)
}

func (b *bridge) response(ctx context.Context, id int, within time.Duration) (json.RawMessage, error) {
	timeout := time.After(within)
	for {
		select {
		case m, ok := <-b.responses:
			if !ok {
				return nil, fmt.Errorf("askbridge exited before answering request %d", id)
			}
			if string(m.ID) != strconv.Itoa(id) {
				continue
			}
			if m.Error != nil {
				return nil, fmt.Errorf("request %d: %s", id, m.Error)
			}
			return m.Result, nil
		case <-timeout:
			return nil, fmt.Errorf("no answer to request %d within %s", id, within)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// open initializes askbridge and opens a session in dir.
func (b *bridge) open(ctx context.Context, dir string) (string, error) {
	if _, err := b.call(ctx, 1, "initialize", map[string]any{"protocolVersion": 1, "clientInfo": map[string]any{"name": "decisionbench", "version": "1"}}); err != nil {
		return "", err
	}
	res, err := b.call(ctx, 2, "session/new", map[string]any{"cwd": dir, "mcpServers": []any{}})
	var s struct{ SessionID string }
	if err == nil {
		err = json.Unmarshal(res, &s)
	}
	return s.SessionID, err
}

// prompt starts the turn in which the agent asks; its end is response 3.
func (b *bridge) prompt(session string) error {
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "session/prompt",
		"params": map[string]any{"sessionId": session, "prompt": []any{map[string]any{"type": "text", "text": "decide"}}}})
	_, err := b.in.Write(append(line, '\n'))
	return err
}

// arrival waits for the agent's report of decision i.
func (b *bridge) arrival(i int) (time.Time, error) {
	select {
	case a := <-b.arrived:
		if a.i != i {
			return time.Time{}, fmt.Errorf("the agent had answer %d, want %d", a.i, i)
		}
		return a.at, nil
	case s := <-b.said:
		return time.Time{}, fmt.Errorf("the agent said: %s", s)
	case <-time.After(20 * time.Second):
		return time.Time{}, fmt.Errorf("the agent did not have answer %d within 20s", i)
	}
}

// stop closes askbridge's stdin (the editor going away) and waits for it.
func (b *bridge) stop() {
	b.in.Close()
	done := make(chan struct{})
	go func() { b.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		b.cmd.Process.Kill()
		<-done
	}
}
