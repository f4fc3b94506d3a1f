// Package live holds the live tests: the real agents from npm
// (claude-agent-acp, qwen-code, opencode-ai), driven by a fake model server
// on 127.0.0.1, run through the built askbridge binary by a scripted ACP
// client. They need `live/install.sh` and run with `make test-live`
// (go test -tags live ./live/...).
package live
