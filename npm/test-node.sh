# Sourced by npm/test.sh: launcher_tests NODE runs the launcher, directly
# and through npx, with the Node at NODE, and checks what stays running.
# Uses test.sh's helpers (start, finish, run, has, tree, ok, bad) and
# $binary, $project, $init, $direct_relay, $direct_term.

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

# open_in: a fresh fifo as askbridge's stdin, held open by the test on fd 8.
open_in() {
  rm -f "$tmp/in"; mkfifo "$tmp/in"; exec 8<>"$tmp/in"
}

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
      procs=$(tree "$pid" | grep -vx "$(cat "$tmp/agent.pid")" | tr '\n' ' ')
      if [ "$(readlink "/proc/$pid/exe")" = "$real" ] && [ "$procs" = "$pid " ]; then
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
      ps -o pid,ppid,args -p "$(echo "$procs" | tr ' ' ,)" || true
    fi
    open_in
  fi
}
