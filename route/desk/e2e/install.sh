#!/usr/bin/env bash
# Installs what the desk's browser test needs: Debian's Chromium and
# playwright-core (which drives it; it downloads no browser of its own).
# Idempotent.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v chromium >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
  else
    echo "route/desk/e2e/install.sh: chromium is missing; install Debian's chromium package" >&2
    exit 1
  fi
fi
if [ ! -d node_modules/playwright-core ]; then
  npm install --no-audit --no-fund --no-save --package-lock=false playwright-core@1.65.1
fi
