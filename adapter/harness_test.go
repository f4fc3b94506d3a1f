package adapter

import (
	"testing"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

// syncBuffer collects a log or a recording written from several goroutines.
type syncBuffer = relaytest.Buffer

func newHarness(t *testing.T, setup func(*relay.Relay)) *relaytest.Harness {
	return relaytest.New(t, relay.Config{}, setup)
}
