#!/usr/bin/env bash
# The npm packages as a user gets them (make test-dist, after make dist):
# the tarballs in dist/npm/ are installed offline into an empty project,
# then askbridge runs through the launcher: --version, the demo with piped
# answers, arguments untouched, and with each Node (the one on PATH and
# Node 22.23.3, which has process.execve) one relay round with a scripted
# agent (the same stdout and exit code as the binary run directly), the
# processes left running (Node ≥ 22.15: the launcher's pid is askbridge's
# and no Node of its own stays; older Node: a Node that spawns askbridge
# on its own stdio), and signals both ways. Node 22: see node22.sh. Linux
# (it reads /proc); prints "N passed, N failed" and exits 1 on a failure.
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

node22=$(npm/node22.sh)
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
other=
for f in "$dist"/npm/askbridge-*-*-"$version".tgz; do
  if [ -f "$f" ] && [ "$f" != "$plat_tgz" ]; then other=$f; break; fi
done
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
# open_in: a fresh fifo as askbridge's stdin, held open by the test on fd 8.
open_in() {
  rm -f "$tmp/in"; mkfifo "$tmp/in"; exec 8<>"$tmp/in"
}
open_in
export AGENT_PIDFILE=$tmp/agent.pid
# start CMD...: run CMD -- the scripted agent in the background, $pid its
# pid; wait for the agent to run.
start() {
  rm -f "$tmp/agent.pid"
  "$@" -- node "$here/testdata/agent.js" <"$tmp/in" >"$tmp/out" 2>"$tmp/err" 8>&- &
  pid=$!; bg+=("$pid")
  for _ in $(seq 100); do [ -s "$tmp/agent.pid" ] && { host_pid; return 0; }; sleep 0.1; done
  bad "$*: the agent did not start" "$tmp/err"; return 1
}
# host_pid: askbridge runs its agent contained, in a PID namespace of its
# own, where the pid the agent wrote is not this shell's: $tmp/agent.pid
# becomes the pid of the process in $pid's tree that runs the agent.
host_pid() {
  local p
  for p in $(tree "$pid"); do
    if [ "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)" = "node $here/testdata/agent.js " ]; then
      echo "$p" >"$tmp/agent.pid"; return 0
    fi
  done
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
# shellcheck disable=SC2016 # the stand-in's own "$@"
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

# node_execs NODE: whether the launcher should replace itself there (Node
# 22.15+ or 23.11+, not Windows), by the version, not by the feature the
# launcher detects.
node_execs() {
  "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number);
    process.exit(process.platform !== "win32" && (a > 23 || (a === 23 && b >= 11) || (a === 22 && b >= 15)) ? 0 : 1)'
}

# node_procs PID...: how many of them run a Node binary.
node_procs() {
  local n=0 p
  for p in "$@"; do case $(readlink "/proc/$p/exe" 2>/dev/null) in */node) n=$((n + 1)) ;; esac; done
  echo "$n"
}

# launcher_tests NODE: the launcher, directly and through npx, with the
# Node at NODE, and what stays running.
launcher_tests() {
  local node path js label execs=false child ab procs left n real
  node=$(command -v "$1")
  path=$(dirname "$node"):$PATH
  js=$project/node_modules/askbridge/bin/askbridge.js
  label="Node $("$node" --version)"
  if node_execs "$node"; then execs=true; label="$label (process.execve)"; else label="$label (spawn)"; fi
  real=$(readlink -f "$binary")

  : >"$tmp/stdin"
  if run 0 "$label: the launcher --version" "$node" "$js" --version; then
    if has out "askbridge v" && [ ! -s "$tmp/err" ]; then ok "$label: the launcher --version prints askbridge's and nothing on stderr"
    else bad "$label: the launcher --version: want askbridge's version and an empty stderr" "$tmp/out" "$tmp/err"; fi
  fi

  # One relay round: the client's initialize goes to the scripted agent,
  # its answer comes back, and the agent exits 3 on its own, which is
  # askbridge's exit code then: stdout byte for byte the binary's.
  echo "$init" >&8
  if AGENT_EXIT_AFTER_INIT=3 start env PATH="$path" npx askbridge; then
    finish
    if [ "$direct_relay" = 3 ] && [ "$code" = 3 ] && has out '"name":"npx-scripted-agent"' && cmp -s "$tmp/out" "$tmp/direct.out"; then
      ok "$label: relay round through npx: the agent's answer on stdout as the binary writes it, its exit code 3"
    else bad "$label: relay round through npx: exit $code (directly: $direct_relay), or stdout differs from the binary's" "$tmp/out" "$tmp/direct.out" "$tmp/err"; fi
  fi

  # What runs for the editor, then SIGTERM to the launcher's pid (an editor
  # stopping its agent server): askbridge stops its agent and exits as it
  # does run directly.
  if start "$node" "$js"; then
    if $execs; then
      # Besides the agent: askbridge, and the init of the agent's PID
      # namespace, askbridge too (the agent runs contained).
      procs=$(tree "$pid" | grep -vx "$(cat "$tmp/agent.pid")" | tr '\n' ' ')
      if [ "$(readlink "/proc/$pid/exe")" = "$real" ] && [ "$(for p in $procs; do readlink "/proc/$p/exe"; done | sort -u)" = "$real" ]; then
        ok "$label: the launcher became askbridge (pid $pid runs $(basename "$real"), no Node process of its own left)"
      else bad "$label: the launcher's pid $pid runs $(readlink "/proc/$pid/exe"), want $real; processes besides the agent: $procs"; fi
    else
      child=$(pgrep -P "$pid" -x askbridge || true)
      if [ -n "$child" ] && [ "$(readlink /proc/"$child"/fd/0)" = "$(readlink /proc/"$pid"/fd/0)" ] \
        && [ "$(readlink /proc/"$child"/fd/1)" = "$(readlink /proc/"$pid"/fd/1)" ]; then
        ok "$label: the launcher's askbridge has the launcher's own stdin and stdout (no Node stream between)"
      else bad "$label: askbridge (pid '$child') does not share the launcher's stdio"; fi
    fi
    kill -TERM "$pid"; finish
    if [ "$code" = "$direct_term" ] && [ "$code" != 0 ] && agent_gone; then
      ok "$label: SIGTERM to the launcher: askbridge stops its agent and exits $code, as it does run directly"
    else bad "$label: SIGTERM to the launcher: exit $code (directly: $direct_term), agent gone: $(agent_gone && echo yes || echo no)" "$tmp/err"; fi
  fi

  # askbridge dying of a signal: the launcher dies of the same one.
  if start "$node" "$js"; then
    ab=$pid; $execs || ab=$(pgrep -P "$pid" -x askbridge || true)
    kill -KILL "$ab"; finish 2>/dev/null  # not bash's "Killed" notice
    if [ "$code" = 137 ]; then ok "$label: askbridge killed with SIGKILL: the launcher's exit is SIGKILL's too (137)"
    else bad "$label: askbridge killed with SIGKILL: the launcher exited $code, want 137" "$tmp/err"; fi
  fi

  # An editor that kills npx outright and closes the pipe: nothing is left
  # (npm's sh -c does not pass signals on; askbridge's stdin ends instead).
  # Besides the agent, npm is the one Node when the launcher replaced
  # itself, npm and the launcher when it spawns.
  if start env PATH="$path" npx askbridge; then
    procs=$(tree "$pid" | tr '\n' ' ')
    # shellcheck disable=SC2046 # one pid a word
    n=$(node_procs $(echo "$procs" | tr ' ' '\n' | grep -vx "$(cat "$tmp/agent.pid")"))
    kill -KILL "$pid"; wait "$pid" 2>/dev/null || true
    exec 8>&-
    left=$procs
    for _ in $(seq 100); do
      left=$(for p in $procs; do if kill -0 "$p" 2>/dev/null; then echo "$p"; fi; done | tr '\n' ' ')
      [ -z "$left" ] && break; sleep 0.1
    done
    if [ -z "$left" ] && { { $execs && [ "$n" = 1 ]; } || { ! $execs && [ "$n" = 2 ]; }; }; then
      ok "$label: npx killed and stdin closed: npx's processes ($(echo "$procs" | wc -w), $n of them Node besides the agent) are gone"
    else
      bad "$label: npx killed and stdin closed: Node processes besides the agent: $n; still running: $left(of $procs)"
      # shellcheck disable=SC2086 # one pid a word, no trailing space
      ps -o pid,ppid,args -p "$(echo $procs | tr ' ' ,)" || true
    fi
    open_in
  fi
}

launcher_tests node
launcher_tests "$node22"

echo "npm/test.sh: $passed passed, $failed failed"
[ "$failed" = 0 ]
