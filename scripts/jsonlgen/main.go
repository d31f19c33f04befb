// Command jsonlgen writes the inputs the performance measurements read
// (scripts/perf.sh): admission inputs, repeated or random, and audit
// batches. The same arguments always write the same bytes.
//
//	go run ./scripts/jsonlgen -kind random -n 1000000 > random.jsonl
//	go run ./scripts/jsonlgen -kind repeated -n 1000000 > repeated.jsonl
//	go run ./scripts/jsonlgen -track audit -n 1000000 > batch.jsonl
//	go run ./scripts/jsonlgen -track audit -n 1000 -batches 1000 > batches.jsonl
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"

	"toolgate/scenarios"
)

func main() {
	trackName := flag.String("track", scenarios.TrackAdmission.String(), "admission (inputs of -kind) or audit (batches of -n requests)")
	kind := flag.String("kind", "random", "admission: random, or repeated (testdata/inputs.jsonl over and over)")
	n := flag.Int("n", 100_000, "lines (admission) or requests in a batch (audit)")
	batches := flag.Int("batches", 1, "audit: how many batches, one a line")
	seed := flag.Uint64("seed", 14, "random seed")
	flag.Parse()
	track, err := scenarios.ParseTrack(*trackName)
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsonlgen: -track:", err)
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	rng := rand.New(rand.NewPCG(*seed, 2026))
	switch track {
	case scenarios.TrackAudit:
		for range *batches {
			audit(w, rng, *n)
		}
	case scenarios.TrackAdmission:
		admission(w, rng, *kind, *n)
	case scenarios.TrackOutcome:
		fmt.Fprintln(os.Stderr, "jsonlgen: no outcome inputs: -track admission or audit")
		os.Exit(2)
	}
	// The writer keeps the first error of any write: a full disk shows
	// here, not as a short file and exit status 0.
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "jsonlgen:", err)
		os.Exit(1)
	}
}

// admission writes n admission inputs of a kind.
func admission(w *bufio.Writer, rng *rand.Rand, kind string, n int) {
	switch kind {
	case "repeated":
		sample, err := os.ReadFile("testdata/inputs.jsonl")
		if err != nil {
			fmt.Fprintln(os.Stderr, "jsonlgen: run it from the repository:", err)
			os.Exit(2)
		}
		lines := bytes.SplitAfter(bytes.TrimSpace(sample), []byte("\n"))
		for i := range n {
			line := lines[i%len(lines)]
			w.Write(bytes.TrimSuffix(line, []byte("\n")))
			w.WriteByte('\n')
		}
	case "random":
		g := gen{rng: rng}
		for range n {
			w.Write(g.input())
			w.WriteByte('\n')
		}
	default:
		fmt.Fprintln(os.Stderr, "jsonlgen: -kind random or repeated")
		os.Exit(2)
	}
}

// audit writes one closed batch of n requests whose results come back in
// another order, with one in a hundred unknown and one in a hundred
// repeated (as BenchmarkAudit's batches).
func audit(w *bufio.Writer, rng *rand.Rand, n int) {
	w.WriteString(`{"requested":[`)
	for i := range n {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString(`"req-` + strconv.Itoa(i) + `"`)
	}
	w.WriteString(`],"results":[`)
	for i, j := range rng.Perm(n) {
		if i > 0 {
			w.WriteByte(',')
		}
		switch i % 100 {
		case 7:
			w.WriteString(`"stray-` + strconv.Itoa(i) + `"`)
		case 42:
			w.WriteString(`"req-0"`)
		default:
			w.WriteString(`"req-` + strconv.Itoa(j) + `"`)
		}
	}
	w.WriteString("],\"closed\":true}\n")
}

// gen writes random admission inputs that toolgate's input check accepts
// (docs/decision.md §1): every rule fires on some of them, optional members are
// present, "" or absent (never null: the check refuses a null string, and
// the measurements are of the decision), a name may be listed twice in
// requiredArguments or used by two tools, and arguments take every kind of
// value, blank strings included.
type gen struct {
	rng *rand.Rand
	b   []byte
}

var (
	toolNames = []string{"document_read_metadata", "document_update_metadata", "document_delete", "search_index",
		"calendar_create_event", "mail_send", "ticket_comment", "file_read", "file_write", "payment_refund"}
	argNames = []string{"documentId", "title", "query", "path", "eventId", "to", "body", "amount", "ticketId", "locale"}
	classes  = []string{"read_only", "read_only", "reversible_write", "irreversible_write", "network_call"}
	statuses = []string{"succeeded", "timed_out", "failed", "running"}
)

func (g *gen) pick(list []string) string { return list[g.rng.IntN(len(list))] }
func (g *gen) chance(p float64) bool     { return g.rng.Float64() < p }

func (g *gen) str(s string) { g.b = strconv.AppendQuote(g.b, s) }

func (g *gen) field(first *bool, name string) {
	if !*first {
		g.b = append(g.b, ',')
	}
	*first = false
	g.str(name)
	g.b = append(g.b, ':')
}

func (g *gen) id() string {
	return "req-" + strconv.FormatUint(g.rng.Uint64()>>20, 36)
}

func (g *gen) input() []byte {
	g.b = g.b[:0]
	type tool struct {
		name, version, scope string
		scoped               bool
	}
	var tools []tool
	g.b = append(g.b, `{"contract":{"version":"c-`...)
	g.b = strconv.AppendInt(g.b, int64(g.rng.IntN(20)), 10)
	g.b = append(g.b, `","tools":[`...)
	for i := range 1 + g.rng.IntN(5) {
		if i > 0 {
			g.b = append(g.b, ',')
		}
		t := tool{name: g.pick(toolNames), version: "v" + strconv.Itoa(1+g.rng.IntN(2))}
		first := true
		g.b = append(g.b, '{')
		g.field(&first, "name")
		g.str(t.name)
		g.field(&first, "version")
		g.str(t.version)
		if g.chance(0.9) {
			g.field(&first, "effectClass")
			g.str(g.pick(classes))
		}
		// requiredArguments is required: [] for none, now and then a name
		// twice.
		g.field(&first, "requiredArguments")
		g.b = append(g.b, '[')
		n := 0
		if g.chance(0.8) {
			n = g.rng.IntN(4)
		}
		for j := range n {
			if j > 0 {
				g.b = append(g.b, ',')
			}
			g.str(argNames[(i+j)%len(argNames)])
		}
		if n > 0 && g.chance(0.05) {
			g.b = append(g.b, ',')
			g.str(argNames[i%len(argNames)])
		}
		g.b = append(g.b, ']')
		if g.chance(0.3) {
			t.scope, t.scoped = t.name+"_scope", true
			g.field(&first, "approvalScope")
			g.str(t.scope)
		}
		tools = append(tools, t)
		g.b = append(g.b, '}')
	}
	g.b = append(g.b, `]},"request":{"correlationId":`...)
	cid := g.id()
	g.str(cid)
	want := tools[g.rng.IntN(len(tools))]
	if g.chance(0.1) {
		want.name = g.pick(toolNames)
	}
	if g.chance(0.05) {
		want.version = "v9"
	}
	g.b = append(g.b, `,"tool":{"name":`...)
	g.str(want.name)
	g.b = append(g.b, `,"version":`...)
	g.str(want.version)
	g.b = append(g.b, '}')
	if g.chance(0.9) {
		g.b = append(g.b, `,"arguments":{`...)
		for j := range g.rng.IntN(5) {
			if j > 0 {
				g.b = append(g.b, ',')
			}
			g.str(argNames[j])
			g.b = append(g.b, ':')
			g.value()
		}
		g.b = append(g.b, '}')
	}
	g.b = append(g.b, '}')
	// environment is required: {} is a snapshot without a status.
	switch r := g.rng.Float64(); {
	case r < 0.75:
		g.b = append(g.b, `,"environment":{"status":"ready"}`...)
	case r < 0.85:
		g.b = append(g.b, `,"environment":{"status":"degraded"}`...)
	default:
		g.b = append(g.b, `,"environment":{}`...)
	}
	if g.chance(0.6) {
		// The scope of the first tool of the requested name, which rule 7
		// reads, most of the time; absent when that tool names none.
		scope, scoped := want.scope, want.scoped
		for _, t := range tools {
			if t.name == want.name {
				scope, scoped = t.scope, t.scoped
				break
			}
		}
		if g.chance(0.3) {
			scope, scoped = "other_scope", true
		}
		status := "active"
		switch r := g.rng.Float64(); {
		case r < 0.07:
			status = "expired"
		case r < 0.1:
			status = "revoked"
		}
		g.b = append(g.b, `,"approval":{"status":`...)
		g.str(status)
		if scoped {
			g.b = append(g.b, `,"scope":`...)
			g.str(scope)
		}
		g.b = append(g.b, '}')
	}
	if g.chance(0.4) {
		rid := cid
		if g.chance(0.15) {
			rid = g.id()
		}
		g.b = append(g.b, `,"invocationRecord":{"correlationId":`...)
		g.str(rid)
		g.b = append(g.b, `,"status":`...)
		g.str(g.pick(statuses))
		if g.chance(0.5) {
			g.b = append(g.b, `,"verificationStatus":`...)
			g.str(g.pick([]string{"accepted", "not_run", "rejected"}))
		}
		if g.chance(0.5) {
			g.b = append(g.b, `,"effectStatus":`...)
			g.str(g.pick([]string{"unknown", "read_back", ""}))
		}
		g.b = append(g.b, '}')
	}
	return append(g.b, '}')
}

// value is an argument value: mostly strings, sometimes empty, a number,
// a boolean, null, an array or an object, now and then text outside ASCII
// or with an escape.
func (g *gen) value() {
	switch r := g.rng.Float64(); {
	case r < 0.6:
		g.str("value-" + strconv.Itoa(g.rng.IntN(100000)))
	case r < 0.65:
		g.str("第" + strconv.Itoa(g.rng.IntN(20)) + "章 \"草稿\"")
	case r < 0.7:
		g.str("")
	case r < 0.72:
		g.str(" \t\u00a0")
	case r < 0.8:
		g.b = strconv.AppendFloat(g.b, g.rng.Float64()*1000, 'g', -1, 64)
	case r < 0.85:
		g.b = strconv.AppendBool(g.b, g.chance(0.5))
	case r < 0.9:
		g.b = append(g.b, "null"...)
	case r < 0.95:
		g.b = append(g.b, `["a",1,{"b":null}]`...)
	default:
		g.b = append(g.b, `{"nested":{"list":[true,false],"n":-1.5e3}}`...)
	}
}
