// Package live holds the live tests: the real agents from npm
// (claude-agent-acp, qwen-code, opencode-ai, and the acpx client) against
// a fake model on 127.0.0.1 (testkit/fakemodel).
//
// The *_direct tests run each agent without askbridge and pin down what it
// really sends and what its model reads back; the bridged tests run the
// same agents through askbridge with a client that only renders permission
// requests. Both use package harness. Install with live/install.sh, run
// with `go test -tags live -race -timeout 20m ./live/...` (make test-live);
// ASKBRIDGE_LIVE_RECORD=DIR saves every run's wire as JSONL.
package live
