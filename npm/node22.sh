#!/usr/bin/env bash
# Prints the path of a Node 22.23.3, the Node that npm/test.sh and
# bench/run.sh run the launcher with beside the one on PATH (22.15 and
# later have process.execve): $NODE22 when set, else the live tests' copy
# (live/install.sh) of npm's node-<platform>@22.23.3 package, else that
# package installed from the npm registry into .cache/tools/.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${NODE22:-}" ]; then echo "$NODE22"; exit 0; fi
platform=$(node -p 'process.platform + "-" + process.arch')
live=$PWD/live/node_modules/node-$platform/bin/node
if [ -x "$live" ] && [ "$("$live" --version)" = v22.23.3 ]; then echo "$live"; exit 0; fi
cache=$PWD/.cache/tools/node-v22.23.3
node=$cache/node_modules/node-$platform/bin/node
if [ ! -x "$node" ]; then
  mkdir -p "$cache" && echo '{"private":true}' >"$cache/package.json"
  (cd "$cache" && timeout 300 npm install --no-audit --no-fund --loglevel=error "node-$platform@22.23.3") >&2
fi
"$node" --version >/dev/null
echo "$node"
