GO ?= go

.PHONY: build demo test test-live test-browser bench fmt vet cross test-windows

build:
	$(GO) build -o bin/askbridge ./cmd/askbridge

# See it work: a built-in agent asks through askbridge, you answer in the terminal.
demo:
	$(GO) run ./cmd/askbridge demo

# The fast suite: unit, end-to-end through the built binary, conformance replay.
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 10m ./...

# The six release targets vet and build (live tests and the benchmark are
# Unix-only by build tag).
TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

cross:
	@set -e; for t in $(TARGETS); do \
	  echo "== $$t"; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./...; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) build -o /dev/null ./cmd/askbridge; \
	done

# The Windows build's unit tests under Wine (wine64); see .ci/test-windows.sh.
test-windows:
	GO=$(GO) .ci/test-windows.sh

# Real agents from npm against a fake model on 127.0.0.1 (see live/).
test-live: build
	$(GO) test -tags live -race -count=1 -timeout 30m ./live/...

# The answer desk page in Debian's Chromium (run internal/desk/e2e/install.sh first).
test-browser:
	$(GO) test -tags browser -race -count=1 -timeout 5m ./internal/desk/...

bench: build
	bench/run.sh

fmt:
	gofmt -l -w .
