package conformance

import (
	"fmt"

	"github.com/askbridge/askbridge/internal/acpschema"
)

// authored is what askbridge itself wrote to one side in a fixture: the
// want lines that are not a line of the other side passed on unchanged
// (relayed lines are the peer's words, not askbridge's), with the requests
// the receiving side sent, by id.
type authored struct {
	side     string // "client" or "agent": who received the lines
	lines    [][]byte
	requests map[string]string
}

// authoredLines splits a fixture's want sections into askbridge's own
// messages to each side.
func authoredLines(f *Fixture) ([]authored, error) {
	toClient, err := authoredBy("client", f.WantClient, f.Agent, f.Client)
	if err != nil {
		return nil, err
	}
	toAgent, err := authoredBy("agent", f.WantAgent, f.Client, f.Agent)
	if err != nil {
		return nil, err
	}
	return []authored{toClient, toAgent}, nil
}

func authoredBy(side string, want, relayedFrom, receiver [][]byte) (authored, error) {
	a := authored{side: side, requests: map[string]string{}}
	passed := map[string]bool{}
	for _, l := range relayedFrom {
		passed[Normalize(l)] = true
	}
	for _, l := range want {
		if !passed[Normalize(l)] {
			a.lines = append(a.lines, l)
		}
	}
	for _, l := range receiver {
		id, method, ok := acpschema.Request(l)
		if !ok {
			continue
		}
		if prev, ok := a.requests[id]; ok && prev != method {
			return a, fmt.Errorf("the %s sent two requests with id %s (%s, %s)", side, id, prev, method)
		}
		a.requests[id] = method
	}
	return a, nil
}
