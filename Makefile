GO ?= go
# What askbridge --version prints: the tag, or the commit in a checkout.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS := -s -w -X main.buildVersion=$(VERSION)

.PHONY: build demo test test-live test-browser bench fmt vet dist dist-local test-dist cross test-windows lint-workflows

# Built as the releases are (.goreleaser.yaml): static, no cgo, no symbol
# tables; the relay then maps no libc (1.4 MiB less RSS) and starts sooner.
# The first build compiles about 340 packages (the standard library's
# included) into Go's cache: about 150 s of CPU, measured with an empty
# GOCACHE (140 and 153 s; 9 and 12 minutes of wall time on 2 cores busy
# with 7 others' builds and tests); later builds take seconds. It says
# so first, then counts the packages as go build -v names them (a line
# with a space is go's own message, an error's, and is shown as is); go
# build's status is make's.
BUILD_NOTE := make build: bin/askbridge. The first build compiles about 360 packages (about 150 s of CPU: over a minute on 2 idle cores, several on a busy machine); later builds with the same settings take seconds (CGO_ENABLED=0 go install -trimpath reuses them; a plain go install, cgo on and paths kept, compiles all again).
build:
	@echo "$(BUILD_NOTE)"
	@echo 'CGO_ENABLED=0 $(GO) build -v -trimpath -ldflags "$(LDFLAGS)" -o bin/askbridge ./cmd/askbridge'
	@rc=$$(mktemp); \
	{ CGO_ENABLED=0 $(GO) build -v -trimpath -ldflags "$(LDFLAGS)" -o bin/askbridge ./cmd/askbridge 2>&1; echo $$? > $$rc; } | \
	  awk '/ / { print; fflush(); next } { n++; if (n % 20 == 1) { printf "  compiling: %d packages so far (%s)\n", n, $$0; fflush() } } END { if (n) printf "  compiled %d packages\n", n }'; \
	status=$$(cat $$rc); rm -f $$rc; exit $$status

# See it work: a built-in agent asks through askbridge, you answer in the
# terminal. It builds first, saying so (the first build: see build).
demo: build
	bin/askbridge demo

# The fast suite: unit, end-to-end through the built binary, conformance replay;
# gofmt and vet first (vet with the browser and live tags too). -trimpath: a
# package's compiled form then does not depend on where the clone is, so a
# fresh clone or worktree reuses what another one compiled into Go's cache
# (on 2 cores, the race-instrumented test binaries are most of the suite's
# time).
test:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path '*/node_modules/*')); \
	  if [ -n "$$unformatted" ]; then echo "not gofmt-clean (run make fmt):"; echo "$$unformatted"; exit 1; fi
	$(GO) vet -trimpath ./...
	$(GO) vet -trimpath -tags browser ./...  # the browser and live tests build here, not only in their slow suites
	$(GO) vet -trimpath -tags live ./...
	$(GO) test -trimpath -race -count=1 -parallel 4 -timeout 10m ./...

# The six release targets build, and each system's code is vetted (live
# tests and the benchmark are Unix-only by build tag), with the releases'
# settings (CGO_ENABLED=0, -trimpath: .goreleaser.yaml), so that vet, this
# build and make dist after them compile each target's packages once: with
# other settings each compiled them again (on 2 cores, cold, most of CI's
# release lane). Vet runs on amd64 only: no file of this module is picked
# by the processor (a test says so), so arm64 would vet the same files, and
# its tests' packages compiled cold for three more targets.
TARGETS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

cross:
	@set -e; for t in $(TARGETS); do \
	  echo "== $$t"; \
	  if [ "$${t#*/}" = amd64 ]; then GOOS=$${t%/*} GOARCH=amd64 CGO_ENABLED=0 $(GO) vet -trimpath ./...; fi; \
	  GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -trimpath -o /dev/null ./cmd/askbridge; \
	done

# The Windows build's unit tests under Wine (wine64); see .ci/test-windows.sh.
test-windows:
	GO=$(GO) .ci/test-windows.sh

# Real agents from npm against a fake model on 127.0.0.1 (see live/).
# LIVE_RUN and LIVE_SKIP, go test's -run and -skip patterns, pick a part of
# the suite: .ci/run runs Copilot's tests (one waits out Copilot's 3-minute
# timeout) beside the rest. -trimpath, as make test compiles, reuses its
# race-instrumented packages.
test-live: build
	$(GO) test -trimpath -tags live -race -count=1 -timeout 50m $(if $(LIVE_RUN),-run '$(LIVE_RUN)') $(if $(LIVE_SKIP),-skip '$(LIVE_SKIP)') ./live/...

# The answer desk's and the hub's page in Debian's Chromium (run route/desk/e2e/install.sh first).
# About 3 minutes alone; .ci/run runs it beside the release lane, whose
# builds share the two cores (5 minutes was once not enough there).
test-browser:
	$(GO) test -tags browser -race -count=1 -timeout 15m ./route/desk/... ./route/hub/...
	$(GO) test -tags browser -race -count=1 -timeout 15m -run '^TestBrowser' ./adapter/

bench: build
	bench/run.sh

fmt:
	gofmt -l -w .

# GoReleaser from the Go module proxy, kept in the ignored .cache/ by version.
GORELEASER_VERSION := v2.15.1
GORELEASER := .cache/tools/goreleaser-$(GORELEASER_VERSION)/goreleaser
$(GORELEASER):
	GOBIN=$(CURDIR)/$(dir $(GORELEASER)) $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)

# GoReleaser reads the git remote's URL and, without one (a worktree), drops
# the commit from the snapshot's version: give it the project's, in its own
# environment only.
NO_REMOTE := $(if $(shell git remote 2>/dev/null),,GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/askbridge/askbridge.git)

# The six archives and checksums.txt (a snapshot: no tag, nothing published),
# then the npm packages from the same binaries: dist/npm/*.tgz.
dist: $(GORELEASER)
	$(NO_REMOTE) $(GORELEASER) release --snapshot --clean
	node npm/build.mjs

# This platform only, in seconds and without GoReleaser: the binary built as
# .goreleaser.yaml builds it, its archive (LICENSE and README.md beside it)
# and the npm packages, in dist/ as make dist lays them out (npm/test.sh
# takes them). make dist builds all six, about 10 minutes the first time.
LOCAL_OS := $(shell $(GO) env GOOS)
LOCAL_ARCH := $(shell $(GO) env GOARCH)
LOCAL_VERSION := 0.0.0-local.g$(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LOCAL_NAME := askbridge_$(LOCAL_VERSION)_$(LOCAL_OS)_$(LOCAL_ARCH)
LOCAL_EXE := askbridge$(if $(filter windows,$(LOCAL_OS)),.exe)
dist-local:
	rm -rf dist && mkdir -p dist/$(LOCAL_NAME)
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w -X main.buildVersion=v$(LOCAL_VERSION)" -o dist/$(LOCAL_NAME)/$(LOCAL_EXE) ./cmd/askbridge
	cp LICENSE README.md dist/$(LOCAL_NAME)/
	cd dist/$(LOCAL_NAME) && $(if $(filter windows,$(LOCAL_OS)),zip -q ../$(LOCAL_NAME).zip *,tar -czf ../$(LOCAL_NAME).tar.gz *)
	printf '{"project_name":"askbridge","version":"%s"}\n' $(LOCAL_VERSION) > dist/metadata.json
	printf '[{"type":"Binary","goos":"%s","goarch":"%s","path":"dist/%s/%s","extra":{"ID":"askbridge"}}]\n' \
	  $(LOCAL_OS) $(LOCAL_ARCH) $(LOCAL_NAME) $(LOCAL_EXE) > dist/artifacts.json
	node npm/build.mjs --allow-missing

# .goreleaser.yaml checked (the Homebrew cask and Scoop manifest too), then
# the npm tarballs installed offline into an empty project and run through
# the launcher and npx with the Node on PATH and Node 22 (Linux).
test-dist: dist
	$(GORELEASER) check
	npm/test.sh

# actionlint from the Go module proxy, kept in .cache/ as GoReleaser is; it
# runs shellcheck on the workflows' scripts when shellcheck is installed.
ACTIONLINT_VERSION := v1.7.12
ACTIONLINT := .cache/tools/actionlint-$(ACTIONLINT_VERSION)/actionlint
$(ACTIONLINT):
	GOBIN=$(CURDIR)/$(dir $(ACTIONLINT)) $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

# The GitHub workflows (.github/workflows/*.yml).
lint-workflows: $(ACTIONLINT)
	$(ACTIONLINT)

# The ACP version pairings (v1/v2 editor × v1/v2 agent) with scripted peers
# on the official TypeScript SDK, askbridge between them (conformance/v2peers).
.PHONY: test-v2
test-v2:
	conformance/v2peers/install.sh
	$(GO) test -race -count=1 -timeout 10m -run 'VersionPairings|UnknownOutcomeThrough' ./conformance/
