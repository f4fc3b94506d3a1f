#!/usr/bin/env bash
# Prints the relay's figures: throughput against cat, added round-trip
# latency and peak RSS; then how soon `askbridge mcp` answers initialize.
# Usage: bench/run.sh [relaybench flags]
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o bin/askbridge ./cmd/askbridge
go run ./bench/relaybench -askbridge bin/askbridge "$@"
go run ./bench/mcpinit -askbridge bin/askbridge
