package conformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// side plays one party of a fixture: it sends its script and records what
// it receives. A line is sent once what it depends on has been seen:
//   - a response, once its request arrived;
//   - any other line, once this side's own earlier requests are answered
//     (a party waits for the answer to what it asked);
//   - the agent's other lines, once the request whose response comes next
//     in its script arrived (it is working on that request);
//   - the client's notifications (session/cancel, say) go out while a
//     request to the client is open, or once its requests are answered;
//   - the client's lines after a desk line, once the desk has given it.
type side struct {
	name   string
	script [][]byte
	agent  bool
	ids    ownIDs // guarded by mu

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every received line
	got      [][]byte
	requests map[string]bool // ids of requests received
	answered map[string]bool // ids of requests received and answered by the script
	mine     map[string]bool // ids of own requests not yet answered
	// watch, when set, sees each line before it is sent and returns a key
	// for a wait it opens (an OpenCode question waiting for its HTTP
	// answer), or "". Later lines wait until resolve closes it.
	watch func(line []byte) string
	// holds are the After of each desk line: line k waits while a desk
	// line with After <= k is not yet given (released counts those given).
	holds    []int
	released int
	sent     int       // lines written
	asked    int       // askbridge's own requests received
	lastGot  time.Time // when the last line arrived
}

// resolve closes a wait opened by watch and records what closed it as a
// line this side received.
func (s *side) resolve(key string, line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.mine, key)
	s.got = append(s.got, line)
	close(s.changed)
	s.changed = make(chan struct{})
}

func newSide(name string, script [][]byte, agent bool) *side {
	return &side{name: name, script: script, agent: agent, changed: make(chan struct{}),
		requests: map[string]bool{}, answered: map[string]bool{}, mine: map[string]bool{}}
}

type msgInfo struct {
	id       string
	method   string
	response bool
}

func info(line []byte) msgInfo {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	json.Unmarshal(line, &m)
	return msgInfo{id: string(bytes.TrimSpace(m.ID)), method: m.Method, response: m.Method == "" && m.ID != nil}
}

// receive reads what askbridge sends this side until r ends.
func (s *side) receive(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		s.mu.Lock()
		line := s.ids.fromWire(bytes.Clone(sc.Bytes()))
		in := info(line)
		s.got = append(s.got, line)
		if in.method != "" && in.id != "" {
			s.requests[in.id] = true
			if strings.HasPrefix(in.id, `"askbridge-`) {
				s.asked++
			}
		}
		s.lastGot = time.Now()
		if in.response {
			delete(s.mine, in.id)
		}
		close(s.changed)
		s.changed = make(chan struct{})
		s.mu.Unlock()
	}
}

// ready reports whether line k may go out.
func (s *side) ready(k int) bool {
	if s.released < len(s.holds) && s.holds[s.released] <= k {
		return false
	}
	in := info(s.script[k])
	if in.response {
		return s.requests[in.id]
	}
	if !s.agent && in.method != "" && in.id == "" {
		for id := range s.requests {
			if !s.answered[id] {
				return true // a notification while a request is open
			}
		}
	}
	if len(s.mine) > 0 {
		return false
	}
	if s.agent {
		for _, later := range s.script[k+1:] {
			if next := info(later); next.response {
				return s.requests[next.id]
			}
		}
	}
	return true
}

// play sends the script to w, each line once it is ready.
func (s *side) play(ctx context.Context, w io.Writer) error {
	for k, line := range s.script {
		for {
			s.mu.Lock()
			ok := s.ready(k)
			changed := s.changed
			if ok {
				in := info(line)
				if in.response {
					s.answered[in.id] = true
				} else if in.method != "" && in.id != "" {
					s.mine[in.id] = true
				}
				if s.watch != nil {
					if key := s.watch(line); key != "" {
						s.mine[key] = true
					}
				}
				line = s.ids.toWire(line)
			}
			s.mu.Unlock()
			if ok {
				break
			}
			select {
			case <-changed:
			case <-ctx.Done():
				if d := s.heldBy(k); d > 0 {
					return fmt.Errorf("%s line %d never went out: it waits for desk line %d: %.120s", s.name, k+1, d, line)
				}
				return fmt.Errorf("%s line %d never became ready (waiting for what it depends on): %.120s", s.name, k+1, line)
			}
		}
		if s.agent {
			line = withMCPServer(withMCPTags(line, s.received()), s.received())
		}
		if _, err := w.Write(append(bytes.Clone(line), '\n')); err != nil {
			return fmt.Errorf("%s line %d: %v", s.name, k+1, err)
		}
		s.mu.Lock()
		s.sent++
		s.mu.Unlock()
	}
	return nil
}

// received is what the side got so far.
func (s *side) received() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.got...)
}

// await waits until the side received n lines, or ctx ends.
func (s *side) await(ctx context.Context, n int) {
	for {
		s.mu.Lock()
		enough := len(s.got) >= n
		changed := s.changed
		s.mu.Unlock()
		if enough {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}

// quiet waits until nothing arrived for d, or ctx ends.
func (s *side) quiet(ctx context.Context, d time.Duration) {
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-time.After(d):
			return
		case <-ctx.Done():
			return
		}
	}
}
