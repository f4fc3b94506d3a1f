package adapter

import (
	"testing"

	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

func TestMain(m *testing.M) { relaytest.Main(m) }

var fakeAgentCommand = relaytest.FakeAgentCommand
