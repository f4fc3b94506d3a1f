#!/usr/bin/env bash
# Prints the relay's figures against the limit (bench/limitrelay: io.Copy
# both ways, parsing nothing), with the previous release's binary measured
# beside it in the same run (the last tag; while there is none, 7050313,
# the start of the round before issue 48; built once into .cache/ from a
# git worktree), against cat (the agent connected directly), and
# against the relays a user would otherwise put between editor and agent: a
# proxy on the official ACP TypeScript SDK (bench/sdkproxy.mjs) and the
# thinkwell conductor with no proxies (bench/conductor.mjs). Those two are
# installed with npm into bench/node_modules, pinned by bench/package.json
# and bench/package-lock.json; without npm, askbridge is measured alone.
# Then the hub as its own process (bench/hubbench), how soon `askbridge mcp`
# answers initialize (bench/mcpinit), what containing the agent costs at
# start (bench/containbench), and last what each way of starting
# askbridge costs (bench/npxpath): the binary, the npm launcher on the Node
# on PATH and on Node 22.23.3 (npm/node22.sh), and `npx --no-install
# askbridge` with each: the time to the first initialize response and the
# memory of the processes each keeps for the session.
# Usage: bench/run.sh [relaybench flags]
set -euo pipefail
cd "$(dirname "$0")/.."
# Both built as askbridge's releases are (.goreleaser.yaml): static, no
# symbol tables.
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/askbridge ./cmd/askbridge
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o bin/limitrelay ./bench/limitrelay

# previous_release builds the previous release's askbridge into .cache/ once
# and prints NAME=BINARY for relaybench -previous; nothing where its commit
# is not in this clone (a shallow one).
previous_release() {
  local rev bin tree
  rev=$(git describe --tags --abbrev=0 2>/dev/null || echo 7050313)
  bin=.cache/askbridge-$rev
  if [ ! -x "$bin" ]; then
    if ! git cat-file -e "$rev^{commit}" 2>/dev/null; then
      echo "bench: $rev is not in this clone: the previous release is not measured" >&2
      return 0
    fi
    tree=.cache/prev-$rev
    git worktree add -f --detach "$tree" "$rev" >/dev/null 2>&1
    (cd "$tree" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "../askbridge-$rev" ./cmd/askbridge)
    git worktree remove --force "$tree"
  fi
  echo "$rev=$bin"
}
previous=$(previous_release)

# install_peers installs the pinned peers unless this lock is installed already.
install_peers() {
  if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
    echo "bench: npm or node not found: measuring askbridge without its peers (the SDK proxy and the conductor need Node.js and npm)" >&2
    return 1
  fi
  if cmp -s bench/package-lock.json bench/node_modules/.bench-installed-lock; then
    return 0
  fi
  if ! npm ci --prefix bench --no-audit --no-fund --loglevel=error >&2; then
    echo "bench: npm ci in bench/ failed: measuring askbridge without its peers" >&2
    return 1
  fi
  cp bench/package-lock.json bench/node_modules/.bench-installed-lock
}

relays=()
if install_peers; then
  relays+=(-relay "conductor=node bench/conductor.mjs --")
  relays+=(-relay "sdk-proxy=node bench/sdkproxy.mjs --")
fi
if [ -n "$previous" ]; then relays+=(-previous "$previous"); fi
go run ./bench/relaybench -askbridge bin/askbridge "${relays[@]}" "$@"
# The hub as its own process with 20 askbridges × 50 pending sets, then
# askbridge's throughput with that hub connected against without.
echo
go build -o bin/relaybench ./bench/relaybench
go run ./bench/hubbench -askbridge bin/askbridge \
  -relaybench "bin/relaybench -askbridge bin/askbridge -limitrelay bin/limitrelay -n 100000 -runs 5"
go run ./bench/mcpinit -askbridge bin/askbridge
# What starting the agent contained costs (Linux's namespaces).
if [ "$(uname -s)" = Linux ]; then go run ./bench/containbench -askbridge bin/askbridge; fi
echo
if command -v node >/dev/null; then
  nodes=(-node node)
  if node22=$(npm/node22.sh); then nodes+=(-node "$node22")
  else echo "bench: no Node 22 (npm/node22.sh failed): the launcher is measured on $(node --version) only" >&2; fi
  go run ./bench/npxpath -askbridge bin/askbridge -launcher npm/askbridge "${nodes[@]}" -- bin/relaybench agent /dev/null
else
  echo "bench: node not found: the npm launcher and npx are not measured" >&2
fi
# A decision made on a paired page until the agent has it, over a real hub
# and askbridge (half of them approvals with a software passkey), then a
# question until its Web Push request reaches the test push service.
echo
go run ./bench/decisionbench -askbridge bin/askbridge
