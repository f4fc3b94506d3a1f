#!/usr/bin/env bash
# Installs what the scripted ACP v2 peers need: the official TypeScript SDK,
# whose experimental/v2 API and schema validators the scripts are written
# on. Idempotent; conformance/v2peers_test.go skips while it is missing.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -f node_modules/@agentclientprotocol/sdk/package.json ] ||
   ! grep -q '"version": "2.4.0"' node_modules/@agentclientprotocol/sdk/package.json; then
  npm install --no-audit --no-fund --no-save --package-lock=false @agentclientprotocol/sdk@2.4.0
fi
