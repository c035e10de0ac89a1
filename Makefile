# repo — see README.md. `make demo` runs repo on the example workspace; `make test` runs every test.
GO      ?= go
BIN     := bin/repo

.PHONY: build test demo lint fmt clean

build:
	$(GO) build -o $(BIN) ./cmd/repo

test: lint
	$(GO) test ./...

# Copies examples/workspace to a scratch folder (DEMO_DIR, default a new temp dir), creates the
# python extensions' venvs there, and runs repo sync --dry-run, repo sync and repo sync --check.
demo: build
	./examples/demo.sh $(CURDIR)/$(BIN)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin
