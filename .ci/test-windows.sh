#!/usr/bin/env bash
# make test-windows: the unit tests of the Windows build (GOOS=windows
# GOARCH=amd64), compiled here and run under Wine (Debian 12's wine64,
# Wine 8.0), one test binary per package, each in its package's directory
# as `go test` would. Tests that cannot work under Wine skip themselves when
# ASKBRIDGE_UNDER_WINE is set (see testkit/testenv); the README lists them.
#
# Two shims make Go 1.26 programs run under Wine 8.0, both for the test
# binaries only (askbridge's own build is untouched):
#   - bcryptprimitives.dll (.ci/wineprng): Go's runtime needs ProcessPrng
#     from it at startup; Wine 8.0 has no such DLL.
#   - an -overlay of Go's internal/syscall/windows/at_windows.go: Wine 8.0
#     answers FileDispositionInformationEx with STATUS_NOT_IMPLEMENTED,
#     which os.RemoveAll does not take as "use the old way", so every
#     t.TempDir cleanup failed. The overlay adds that status to the ones
#     that fall back.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
# Debian's wine64 package alone puts its loader in /usr/lib/wine.
WINE=${WINE:-$(command -v wine64 || command -v wine || ls /usr/lib/wine/wine64 2>/dev/null || true)}
WINESERVER=$(command -v wineserver || ls /usr/lib/wine/wineserver64 2>/dev/null || true)
if [ -z "$WINE" ]; then
  echo "test-windows: no wine64 or wine on PATH (apt-get install -y wine64)" >&2
  exit 1
fi
export WINEPREFIX=${WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/askbridge-wine}
mkdir -p "$(dirname "$WINEPREFIX")" # wine will not make the folder it lives in
export WINEDEBUG=${WINEDEBUG:--all}
export ASKBRIDGE_UNDER_WINE=1
work=$(mktemp -d "${TMPDIR:-/tmp}/askbridge-test-windows.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "== Wine prefix $WINEPREFIX ($("$WINE" --version 2>/dev/null))"
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  timeout 300 "$WINE" wineboot --init >/dev/null 2>&1 || true
fi
sys32="$WINEPREFIX/drive_c/windows/system32"
[ -d "$sys32" ] || { echo "test-windows: no $sys32 after wineboot" >&2; exit 1; }
$GO run ./.ci/wineprng -o "$sys32/bcryptprimitives.dll"

at="$($GO env GOROOT)/src/internal/syscall/windows/at_windows.go"
sed 's|^\t\tSTATUS_NOT_SUPPORTED: \(.*\)|\t\tSTATUS_NOT_SUPPORTED, \1\n\t\tNTStatus(0xC0000002): // STATUS_NOT_IMPLEMENTED: Wine 8 has no FileDispositionInformationEx|' \
  "$at" >"$work/at_windows.go"
if cmp -s "$at" "$work/at_windows.go"; then
  echo "test-windows: $at has changed; update the overlay in $0" >&2
  exit 1
fi
printf '{"Replace":{"%s":"%s"}}\n' "$at" "$work/at_windows.go" >"$work/overlay.json"

echo "== build askbridge.exe and the test binaries"
GOOS=windows GOARCH=amd64 $GO build -overlay "$work/overlay.json" -o "$work/askbridge.exe" ./cmd/askbridge
export ASKBRIDGE_TEST_BIN="$work/askbridge.exe" # see testkit/testenv
pkgs=$(GOOS=windows GOARCH=amd64 $GO list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}={{.Dir}}{{end}}' ${PKGS:-./...}) # PKGS: some packages only
failed=()
failed_tests=()
built=()
for p in $pkgs; do
  path=${p%%=*}
  if GOOS=windows GOARCH=amd64 $GO test -c -overlay "$work/overlay.json" -o "$work/$(basename "$path").test.exe" "$path"; then
    built+=("$p")
  else
    failed+=("$path (build)")
  fi
done

echo "== run them under Wine"
for p in "${built[@]}"; do
  path=${p%%=*} dir=${p#*=}
  exe="$work/$(basename "$path").test.exe"
  start=$SECONDS
  rc=0
  (cd "$dir" && timeout 600 "$WINE" "$exe" -test.v -test.timeout 540s ${TESTFLAGS:-} >"$work/out" 2>&1) || rc=$?
  # Wine 8.0 on a busy machine now and then fails to start a process
  # (CreateProcess: "Internal error."), a fault of Wine's that Windows
  # does not have: such a package runs once more, and the log says so.
  if [ $rc -ne 0 ] && grep -q -E 'fork/exec .*: Internal error\.' "$work/out"; then
    echo "     $path: Wine could not start a process (Internal error); running the package again:"
    grep -E 'fork/exec .*: Internal error\.' "$work/out" | sed 's/^ */       /'
    rc=0
    (cd "$dir" && timeout 600 "$WINE" "$exe" -test.v -test.timeout 540s ${TESTFLAGS:-} >"$work/out" 2>&1) || rc=$?
  fi
  if [ $rc -eq 0 ]; then
    printf 'ok   %-46s %3ds %4d passed %3d skipped\n' "$path" $((SECONDS - start)) \
      "$(grep -c -- '--- PASS' "$work/out" || true)" "$(grep -c -- '--- SKIP' "$work/out" || true)"
    # Each skipped test with its reason (the log line t.Skip printed before it).
    awk '/_test\.go:[0-9]+: /{why=$0; sub(/^ *[^ ]*_test\.go:[0-9]+: /, "", why)} /--- SKIP/{print "       skip " $3 ": " why; why=""}' "$work/out"
  else
    printf 'FAIL %-46s %3ds  exit %d\n' "$path" $((SECONDS - start)) $rc
    # The failed tests' names first, for a log cut short keeps its head and
    # tail; then the tests last started, in case the process died without a
    # word from the testing package (a panic in a goroutine, a Wine crash).
    grep -E -e '--- FAIL' -e '^panic:' -e 'test timed out' -e '^wine: ' -e 'Unhandled (exception|page fault)' "$work/out" | sed 's/^/    /' || true
    grep -E '^=== (RUN|CONT)' "$work/out" | tail -4 | sed 's/^/    last started: /' || true
    grep -v -e '--- PASS' -e '^=== ' "$work/out" | sed 's/^/    /' | tail -150
    failed+=("$path")
    mapfile -t -O ${#failed_tests[@]} failed_tests < <(grep -o -E -e '--- FAIL: [^ ]+' "$work/out" | sed 's/--- FAIL: //')
  fi
done
# End what a test left running (an agent's helper, say).
[ -n "$WINESERVER" ] && "$WINESERVER" -k >/dev/null 2>&1 || true
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-windows: failed under Wine: ${failed[*]}" >&2
  [ ${#failed_tests[@]} -eq 0 ] || echo "test-windows: the failed tests: ${failed_tests[*]}" >&2
  exit 1
fi
