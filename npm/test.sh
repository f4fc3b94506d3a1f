#!/usr/bin/env bash
# The npm packages as a user gets them (make test-dist, after make dist):
# the tarballs in dist/npm/ are installed offline into an empty project,
# then askbridge runs through the launcher: --version, the demo with piped
# answers, arguments untouched, and with each Node (the one on PATH and
# Node 22.23.3, which has process.execve) one relay round with a scripted
# agent (the same stdout and exit code as the binary run directly), the
# processes left running (Node ≥ 22.15: the launcher's pid is askbridge's
# and no Node of its own stays; older Node: a Node that spawns askbridge
# on its own stdio), and signals both ways. Node 22 is $NODE22, else
# node-<platform>@22.23.3 from npm, kept in .cache/tools/. Linux (it reads
# /proc); prints "N passed, N failed" and exits 1 on a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
dist=${DIST:-$PWD/dist}
here=$PWD/npm

version=$(node -p 'require(process.argv[1]).version' "$dist/metadata.json")
platform=$(node -p 'process.platform + "-" + process.arch')
main_tgz=$dist/npm/askbridge-$version.tgz
plat_tgz=$dist/npm/askbridge-$platform-$version.tgz
for f in "$main_tgz" "$plat_tgz"; do
  [ -f "$f" ] || { echo "npm/test.sh: no $f: run make dist" >&2; exit 1; }
done

# Node 22 from npm (its official build, as a package), unless given.
node22=${NODE22:-}
if [ -z "$node22" ]; then
  cache=$PWD/.cache/tools/node-v22.23.3
  node22=$cache/node_modules/node-$platform/bin/node
  if [ ! -x "$node22" ]; then
    mkdir -p "$cache" && echo '{"private":true}' >"$cache/package.json"
    (cd "$cache" && timeout 300 npm install --no-audit --no-fund --loglevel=error "node-$platform@22.23.3") >&2
  fi
fi
"$node22" --version >/dev/null || { echo "npm/test.sh: cannot run Node 22 ($node22)" >&2; exit 1; }

tmp=$(mktemp -d)
bg=()
cleanup() {
  for p in "${bg[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  if [ -f "$tmp/agent.pid" ]; then kill -KILL "$(cat "$tmp/agent.pid")" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() {
  failed=$((failed + 1)); echo "FAIL $1"; shift
  for f in "$@"; do [ -f "$f" ] && sed 's/^/     | /' "$f" | tail -20; done
  return 0
}

# No registry: an empty cache and --offline. The other platforms'
# packages are optional and not in the cache, so npm skips them.
export npm_config_cache=$tmp/npm-cache npm_config_offline=true npm_config_audit=false \
  npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error
export ASKBRIDGE_SOCKET=

project=$tmp/project
mkdir -p "$project"
cd "$project"
echo '{"name":"empty","private":true}' >package.json
binary=$project/node_modules/@askbridge/$platform/bin/askbridge
if timeout 120 npm install "$main_tgz" "$plat_tgz" >"$tmp/install.log" 2>&1 && [ -x "$binary" ] \
  && [ "$(ls node_modules/@askbridge)" = "$platform" ]; then
  ok "npm install --offline ./askbridge-$version.tgz ./askbridge-$platform-$version.tgz (only @askbridge/$platform)"
else
  bad "npm install of the tarballs" "$tmp/install.log"
  echo "0 passed, $failed failed"; exit 1
fi

# Another platform's package is refused here: its os and cpu fields work.
other=$(ls "$dist"/npm/askbridge-*-*-"$version".tgz | grep -v -- "-$platform-$version.tgz" | head -1 || true)
if [ -n "$other" ]; then
  mkdir -p "$tmp/other" && echo '{"name":"other","private":true}' >"$tmp/other/package.json"
  if (cd "$tmp/other" && ! timeout 120 npm install "$other" >"$tmp/other.log" 2>&1) && grep -q EBADPLATFORM "$tmp/other.log"; then
    ok "npm refuses $(basename "$other") on $platform (EBADPLATFORM)"
  else bad "npm install of $(basename "$other") on $platform: want EBADPLATFORM" "$tmp/other.log"; fi
fi

# run CODE NAME CMD...: CMD (stdin from $tmp/stdin) must exit with CODE.
run() {
  local want=$1 name=$2 code=0; shift 2
  timeout 60 "$@" <"$tmp/stdin" >"$tmp/out" 2>"$tmp/err" || code=$?
  if [ "$code" = "$want" ]; then return 0; fi
  bad "$name: exit $code, want $want" "$tmp/out" "$tmp/err"; return 1
}
has() { grep -qF -- "$2" "$tmp/$1"; }

: >"$tmp/stdin"
want="askbridge v$version (go"
if run 0 "npx askbridge --version" npx askbridge --version; then
  if has out "$want" && has out "$(go env GOOS)/$(go env GOARCH))"; then ok "npx askbridge --version: $(cat "$tmp/out")"
  else bad "npx askbridge --version: want $want…" "$tmp/out"; fi
fi
if run 0 "npx askbridge version" npx askbridge version; then
  if has out "$want"; then ok "npx askbridge version"; else bad "npx askbridge version: want $want…" "$tmp/out"; fi
fi

printf '1\n1,2\n0\nmy-service\n' >"$tmp/stdin"
if run 0 "npx askbridge demo" npx askbridge demo; then
  if has out "→ Postgres (Recommended)" && has out "→ Auth, Metrics" && has out "→ my-service"; then
    ok "npx askbridge demo: the agent quotes the piped answers"
  else bad "npx askbridge demo: the answers are not quoted" "$tmp/out"; fi
fi

# Processes that outlive the run: stdin is a fifo the test holds open on
# fd 8 (and keeps from the children), so askbridge gets EOF only when the
# test closes it, as when an editor closes the agent's pipe.
. "$here/test-node.sh"
open_in
export AGENT_PIDFILE=$tmp/agent.pid
# start CMD...: run CMD -- the scripted agent in the background, $pid its
# pid; wait for the agent to run.
start() {
  rm -f "$tmp/agent.pid"
  "$@" -- node "$here/testdata/agent.js" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" 8>&- &
  pid=$!; bg+=("$pid")
  for _ in $(seq 100); do [ -s "$tmp/agent.pid" ] && return 0; sleep 0.1; done
  bad "$*: the agent did not start" "$tmp/err"; return 1
}
# finish: wait (at most 20 s) for $pid; its exit status in $code.
finish() {
  for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  code=0; wait "$pid" 2>/dev/null || code=$?
}
agent_gone() { ! kill -0 "$(cat "$tmp/agent.pid")" 2>/dev/null; }
# tree PID: PID and its descendants.
tree() { echo "$1"; for c in $(pgrep -P "$1"); do tree "$c"; done; }

# Arguments, "--" included, reach the binary untouched (ASKBRIDGE_BINARY
# runs a stand-in that prints them), and its exit code comes back.
: >"$tmp/stdin"
printf '#!/bin/sh\nfor a in "$@"; do printf "[%%s]" "$a"; done\nexit 42\n' >"$tmp/args.sh"
chmod +x "$tmp/args.sh"
if run 42 "arguments through npx" env ASKBRIDGE_BINARY="$tmp/args.sh" npx askbridge -- npx -y 'an agent' --acp ''; then
  if [ "$(cat "$tmp/out")" = "[--][npx][-y][an agent][--acp][]" ]; then ok "npx askbridge -- …: arguments untouched, exit code 42"
  else bad "arguments through npx: got $(cat "$tmp/out")"; fi
fi

init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}'
# The binary run directly: what the launcher must match.
echo "$init" >&8
AGENT_EXIT_AFTER_INIT=3 start "$binary" && finish
cp "$tmp/out" "$tmp/direct.out"; direct_relay=$code
start "$binary" && { kill -TERM "$pid"; finish; }
direct_term=$code

launcher_tests node
launcher_tests "$node22"

echo "npm/test.sh: $passed passed, $failed failed"
[ "$failed" = 0 ]
