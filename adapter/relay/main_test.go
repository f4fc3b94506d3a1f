package relay_test

import (
	"testing"

	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

func TestMain(m *testing.M) { relaytest.Main(m) }
