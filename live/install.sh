#!/usr/bin/env bash
# Installs the real agents the live tests drive, pinned, into live/node_modules.
# Idempotent: a second run with everything present does nothing.
set -euo pipefail
cd "$(dirname "$0")"
want='@agentclientprotocol/claude-agent-acp@0.101.0 @qwen-code/qwen-code@0.24.4 opencode-ai@1.18.33'
if [ -f node_modules/.askbridge-installed ] && [ "$(cat node_modules/.askbridge-installed)" = "$want" ]; then
  echo "live agents already installed"
  exit 0
fi
command -v node >/dev/null || { echo "live/install.sh: node is required" >&2; exit 1; }
npm install --no-audit --no-fund --no-save --package-lock=false $want
echo "$want" > node_modules/.askbridge-installed
