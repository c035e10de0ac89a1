# repo — see README.md. `make demo` runs repo on the example workspace; `make test` runs every test.
GO      ?= go
BIN     := bin/repo
# `repo version` prints these; override them for a release: make build VERSION=v1.2.0
VERSION ?= $(shell git describe --tags --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
LDFLAGS  = -X github.com/repo-manager/repo/cmd.version=$(VERSION) -X github.com/repo-manager/repo/cmd.commit=$(COMMIT)
# The development-only commands (conformance/, bench/gen, toolprofiles/internal/gen*) build only
# with this tag, so that `go install ./...` (what pre-commit's golang hooks run) builds repo alone.
# Every target below that builds, vets or tests them passes it.
DEVTAGS := repodev
# TOOLS: where pinned tools are installed on first use (.ci/run keeps them across CI runs).
TOOLS ?= $(CURDIR)/bin/tools
# staticcheck (make lint), pinned: 2026.2.2, the newest release. It checks code for go.mod's Go 1.24
# and builds with Go 1.26 or later, which go install fetches where the installed Go is older.
STATICCHECK_VERSION := v0.8.2
STATICCHECK := $(TOOLS)/staticcheck-$(STATICCHECK_VERSION)/staticcheck

.PHONY: build test race demo lint fmt clean generate fuzz conformance stress bench release release-snapshot release-check

# Without cgo, as the release is built (.goreleaser.yaml): pflag imports net, which links the C
# library where a C compiler is found, and that alone makes every run start about a fifth slower
# (bench/startup.sh CGO=1). The release also strips (-s -w); this build keeps the symbols, for
# profiling: they are not loaded, and cost no start-up time.
build:
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/repo

test: lint
	$(GO) test -tags $(DEVTAGS) ./...
	$(GO) test -race -tags $(DEVTAGS) $(RACEPKGS)
	$(GO) test -race -tags $(DEVTAGS) -run '$(RACETESTS)' ./cmd/

# The packages that run goroutines (planning and staging, the big-file halves and the fault guard,
# loading extensions, par itself), which make test also runs under the race detector; and the cmd
# tests that run repo sync processes side by side (built with -race then, see cmd/race_test.go).
RACEPKGS  := ./internal/par/ ./internal/bigmem/ ./internal/regfile/ ./extensions/ ./writers/... \
             ./internal/target/ ./internal/plan/ ./internal/commit/ ./internal/fileio/ ./internal/editor/... \
             ./internal/canon/ ./internal/fsfault/ ./internal/record/ ./internal/gitignore/ ./internal/runner/
RACETESTS := ^(TestConcurrentSyncs|TestCheckWhileToolRewritesInPlace|TestKilledSyncsConverge|TestSignalledSyncsAreAllOrNothing)$$

# Every test under the race detector (CI runs it after make test): planning, staging, the big-file
# halves and the fault guard run on several goroutines. Every repo a cmd test script runs is the
# race-built test binary, about ten times slower, so on CI's two cores that package alone takes
# longer than go test's default ten minutes per package: hence the longer timeout.
race:
	$(GO) test -race -timeout 45m -tags $(DEVTAGS) ./...

# Copies examples/workspace to a scratch folder (DEMO_DIR, default a new temp dir), creates the
# python extensions' venvs there, and runs repo sync --dry-run, repo sync and repo sync --check.
demo: build
	@./examples/demo.sh $(CURDIR)/$(BIN)

# Opt-in, not part of `make test`: installs the real AI clients from npm into CONFORMANCE_CACHE
# (default ~/.cache/repo-conformance), syncs a scratch copy of examples/workspace and asks each
# client, offline and with a private HOME, which servers it loads; writes conformance/LAST_RUN.md
# and fails if an expected server is not connected. QUICK=1: no installation, one scope per
# client, no LAST_RUN.md; CLIENTS=claude,codex: only these; CONFORMANCE_FLAGS: more (-v, --keep).
conformance:
	$(GO) run -buildvcs=false -tags $(DEVTAGS) ./conformance $(if $(filter-out 0,$(QUICK)),--quick) $(if $(CLIENTS),--clients $(CLIENTS)) $(CONFORMANCE_FLAGS)

# Whole-command timings against ruler, rulesync, dd and jq (hyperfine; npm for the peers) and the
# Go benchmarks, written to bench/RESULTS.md. QUICK=1 for a smoke run.
bench:
	bash bench/run.sh

# Concurrency stress: stand-ins for tools rewrite ~/.claude.json while syncs run — by rename, as
# Claude Code does, and in place (truncate, pause, write: 1,000 saves), as Gemini CLI does — and
# --check runs while a tool rewrites a mapped file; plus syncs killed at random moments, and 500
# syncs sent SIGINT or SIGTERM at random moments, at their first staged file or their first rename
# (timing-dependent, so the long ones are opt-in, not part of make test). COUNT=n repeats it.
stress:
	REPO_STRESS=1 $(GO) test ./cmd/ -run 'TestConcurrentSyncs|TestToolRewritesWhileSyncing|TestInPlaceWriterStress|TestCheckWhileToolRewritesInPlace|TestKilledSyncsConverge|TestSignalledSyncsAreAllOrNothing' -count=$(or $(COUNT),5) -v

# Regenerates, from the settings table (internal/setting), the structs that hold settings, the docs'
# settings tables and the schemas' settings; then the compiled-in profiles (toolprofiles/builtin_gen.go)
# and docs/supported-tools.md from toolprofiles/profiles/*.toml (tests fail when any is stale).
generate:
	$(GO) generate ./...

# Runs every fuzz target of the repository for FUZZTIME each (go test -fuzz takes one target
# at a time). Targets are found with go test -list, which prints a package's Fuzz* names before
# its "ok <package>" line. New crashers land in <package>/testdata/fuzz/: keep them as seeds.
FUZZTIME ?= 30s
fuzz:
	@list=$$($(GO) test -list '^Fuzz' ./...) || { echo "$$list"; exit 1; }; \
	  targets=$$(echo "$$list" | awk '/^Fuzz/ { n[++c] = $$1; next } /^ok / { for (i = 1; i <= c; i++) print $$2 " " n[i]; c = 0 }'); \
	  if [ -z "$$targets" ]; then echo "no fuzz targets found"; exit 1; fi; \
	  echo "$$targets" | while read -r pkg name; do \
	    echo "== $$pkg $$name ($(FUZZTIME))"; \
	    $(GO) test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done

lint: $(STATICCHECK)
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet -tags $(DEVTAGS) ./...
	$(STATICCHECK) -tags $(DEVTAGS) ./...

$(STATICCHECK):
	GOBIN=$(abspath $(dir $(STATICCHECK))) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

fmt:
	gofmt -w $$(git ls-files '*.go')

# Releases (.goreleaser.yaml) with GoReleaser, pinned here and installed with `go install` into
# TOOLS on first use (about 16 minutes on 2 cores with nothing in the module cache, ~1 GB of
# modules; 3 minutes with them).
# release-snapshot builds every archive, checksums.txt, the Homebrew cask and the Scoop manifest
# into dist/ without publishing, and checks that the binary for this machine reports the snapshot's
# version and commit. release-check only validates .goreleaser.yaml. release (the tag workflow,
# .github/workflows/release.yml) publishes; it needs GITHUB_TOKEN, HOMEBREW_TAP_GITHUB_TOKEN and
# SCOOP_BUCKET_GITHUB_TOKEN.
GORELEASER_VERSION := v2.16.0
GORELEASER := $(TOOLS)/goreleaser-$(GORELEASER_VERSION)/goreleaser

$(GORELEASER):
	GOBIN=$(abspath $(dir $(GORELEASER))) $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)

release-check: $(GORELEASER)
	$(GORELEASER) check

# GoReleaser stamps the commit only where `git ls-remote --get-url` answers: a clone without a
# remote (git init, or a worktree of one) gets the project's URL for this run, nothing is fetched.
NOREMOTE_ENV = $(if $(shell git remote 2>/dev/null),,GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/repo-manager/repo.git)

release-snapshot: $(GORELEASER)
	$(NOREMOTE_ENV) $(GORELEASER) release --snapshot --clean
	@bin=$$(ls dist/repo_$$($(GO) env GOOS)_$$($(GO) env GOARCH)*/repo*); \
	  out=$$($$bin version) && echo "$$bin version: $$out" && \
	  case "$$out" in "repo v"*-snapshot+*" ($$(git rev-parse --short=12 HEAD), go"*) ;; \
	    *) echo "release-snapshot: the binary does not report the snapshot's version and commit" >&2; exit 1;; esac

release: $(GORELEASER)
	$(GORELEASER) release --clean

clean:
	rm -rf bin dist
