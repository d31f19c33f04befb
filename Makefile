# toolgate — everyday commands. Everything here is plain `go`; the README
# gives the same commands for a machine without make.
.PHONY: run build test race bench fuzz lint jsonl-bench load import-load perf firstframe pictures browser clean

# golangci-lint, pinned: built from the Go module proxy at this version
# (cached after the first run); .golangci.yml says which linters. It takes
# a lock for the whole machine: a second run (another checkout) waits.
GOLANGCI_LINT = go run github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0

# The packages that run goroutines, in their code or their tests.
RACE_PACKAGES = . ./cli ./classroom/... ./tui ./progress ./watch ./gatecheck ./learn ./importer

run:
	go run .

build:
	go build -o toolgate .

test:
	go test ./...

# The race detector over the packages that run goroutines.
race:
	go test -race $(RACE_PACKAGES)

bench:
	go test -p 1 ./... -run '^$$' -bench . -benchmem

# Fuzz each target for a bounded time (FUZZTIME=1m make fuzz for longer).
FUZZTIME ?= 20s
fuzz:
	go test ./decode -run '^$$' -fuzz '^FuzzDecodeAssess$$' -fuzztime $(FUZZTIME)
	go test ./decode -run '^$$' -fuzz '^FuzzFastAudit$$' -fuzztime $(FUZZTIME)
	go test ./decode -run '^$$' -fuzz '^FuzzStream$$' -fuzztime $(FUZZTIME)
	go test ./cli -run '^$$' -fuzz '^FuzzAssessStream$$' -fuzztime $(FUZZTIME)
	go test ./cli -run '^$$' -fuzz '^FuzzAuditStream$$' -fuzztime $(FUZZTIME)
	go test ./cli -run '^$$' -fuzz '^FuzzBlocks$$' -fuzztime $(FUZZTIME)
	go test ./assess -run '^$$' -fuzz '^FuzzAudit$$' -fuzztime $(FUZZTIME)
	go test ./importer -run '^$$' -fuzz '^FuzzImport$$' -fuzztime $(FUZZTIME)

# gofmt, go vet and golangci-lint: what .ci/run checks.
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	go vet ./...
	$(GOLANGCI_LINT) run --allow-serial-runners ./...

# End to end: the real binary on 100,000 JSON Lines.
jsonl-bench: build
	yes "$$(cat testdata/inputs.jsonl)" | head -n 100000 > /tmp/toolgate-100k.jsonl
	for i in 1 2 3; do /usr/bin/time -f "%e s wall, %M KB max RSS" ./toolgate assess /tmp/toolgate-100k.jsonl > /dev/null; done

# The classroom under load (minutes, not in `make test`: its figures depend on
# the machine): 200 students and a poll, a 500-connection flood beyond the cap,
# paste-and-disconnect leaks, memory per session, 200 logins under a wrong-code
# attack from the same address, idle timing;
# and a room shared by three front-ends through NATS: 1,000 students, connect
# time, memory per student on each front-end, key-to-screen lag (p50/p99).
load:
	TOOLGATE_LOAD=1 go test ./classroom -run 'Load' -v -count=1 -timeout 30m

# The phones' page in a real browser (Debian's chromium, headless): join by
# the QR link, answer, the presenter's count, the reveal, in both languages
# at 360x740 and 1280x800; the screenshots go to docs/img/web. .ci/browser
# installs chromium first where apt can.
browser:
	TOOLGATE_SCREENSHOTS=1 go test ./classroom -run 'Browser' -v -count=1 -timeout 10m

# import transcript on 100 MB (an MCP log, a Claude Code log, one Anthropic
# body), streamed through a pipe: peak memory asserted under 200 MB, speed
# logged (the machine's). Then the binary on the same inputs, as docs/import.md.
import-load: build
	TOOLGATE_LOAD=1 go test ./importer -run '^TestLoad$$' -v -count=1
	for f in mcp claude-code anthropic; do \
		go run ./testdata/harness/biglog -format $$f -mb 100 > /tmp/toolgate-big-$$f.txt; \
		/usr/bin/time -f "$$f: %e s wall, %M KB max RSS" ./toolgate import transcript --audit /tmp/toolgate-big-$$f.txt > /dev/null 2>/tmp/toolgate-big-$$f.err; \
		tail -1 /tmp/toolgate-big-$$f.err; \
	done

# The README's "Performance" measurements of the binary: assess against
# the jsontext syntax check and Node, one core against two, file against
# pipe, audit from 1k to 1M requests (ROUNDS=5, BEFORE=an older binary).
perf:
	scripts/perf.sh $(PERF)

# Exec to first frame in tmux, against a shell printing the same line.
firstframe: build
	go run ./scripts/firstframe -runs 20 ./toolgate

# The README's pictures (docs/img/*.svg) from the real binary: tmux at 80×24,
# captured with escapes, rendered by charmbracelet/freeze v0.2.2. Needs tmux
# and ssh. Run it again when a screen changes.
pictures: build
	scripts/pictures.sh

clean:
	rm -f toolgate
