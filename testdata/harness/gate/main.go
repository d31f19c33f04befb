// Command gate is a small admission gate for testing `toolgate check`: it
// reads one JSON input a line on stdin and writes one answer a line on
// stdout. Faithful by default (it answers with toolgate's own decoder and
// core); -bug plants one mistake a real gate makes; -misbehave breaks the
// line protocol the ways a real program does.
//
//	go build -o gate ./testdata/harness/gate
//	toolgate check -- ./gate
//	toolgate check -- ./gate -bug empty-scope-as-absent
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/scenarios"
)

func main() {
	trackName := flag.String("track", scenarios.TrackAdmission.String(), "the track: "+scenarios.TrackNames())
	bug := flag.String("bug", "", "plant a mistake: empty-scope-as-absent, approval-before-environment, sorted-missing, "+
		"approval-not-active, dedupe-missing, no-trim, scope-defaults-to-name, any-entry-of-a-name, book-port, surrogate-as-replacement")
	misbehave := flag.String("misbehave", "", "break the protocol: hang, exit-early, garbage, flood, extra-line, stderr-flood, slow-exit")
	flag.Parse()
	track, err := scenarios.ParseTrack(*trackName)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gate: -track:", err)
		os.Exit(2)
	}

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64<<10), 16<<20)
	out := bufio.NewWriter(os.Stdout)
	answer := func(v any) {
		b, _ := json.Marshal(v)
		out.Write(append(b, '\n'))
		out.Flush()
	}
	switch *misbehave {
	case "hang":
		for in.Scan() {
		}
		for {
			time.Sleep(time.Hour)
		}
	case "flood":
		line := strings.Repeat("A", 64<<10)
		for {
			if _, err := out.WriteString(line); err != nil {
				os.Exit(1)
			}
		}
	case "stderr-flood":
		go func() {
			for range 64 {
				fmt.Fprint(os.Stderr, strings.Repeat("log line that never ends ", 1000))
			}
		}()
	}
	n := 0
	for in.Scan() {
		n++
		switch {
		case *misbehave == "exit-early" && n == 4:
			fmt.Fprintln(os.Stderr, "gate: panic: assignment to entry in nil map (input 4)")
			os.Exit(3)
		case *misbehave == "garbage" && n == 3:
			out.WriteString("\x1b[31mok\x1b[0m, it looks fine to me\n")
			out.Flush()
			continue
		}
		answer(decide(track, *bug, in.Bytes()))
	}
	switch *misbehave {
	case "extra-line":
		answer(map[string]string{"status": "allowed", "code": "admission_allowed", "correlationId": "bonus"})
	case "slow-exit":
		time.Sleep(time.Hour)
	}
}

type errorLine struct {
	Error string `json:"error"`
}

func decide(track scenarios.Track, bug string, line []byte) any {
	switch track {
	case scenarios.TrackAudit:
		in, err := decode.Audit(line)
		if err != nil {
			return errorLine{err.Error()}
		}
		r, err := assess.Audit(in)
		if err != nil {
			return errorLine{err.Error()}
		}
		return r
	case scenarios.TrackOutcome:
		in, err := decode.Outcome(line)
		if err != nil {
			return errorLine{err.Error()}
		}
		class, _, err := assess.Classify(in)
		if err != nil {
			return errorLine{err.Error()}
		}
		return map[string]string{"class": class.String()}
	case scenarios.TrackAdmission:
	}
	in, err := decode.Input(line)
	if err != nil && bug == "surrogate-as-replacement" && strings.Contains(err.Error(), decode.LoneSurrogate) {
		// A port that checks every input as toolgate does, but decodes
		// with encoding/json: a lone surrogate escape becomes U+FFFD,
		// silently, and the input is a different one.
		var v any
		if json.Unmarshal(line, &v) == nil {
			replaced, _ := json.Marshal(v)
			in, err = decode.Input(replaced)
		}
	}
	if err != nil && bug == "book-port" {
		// A bare port of the book's function has no input check: it reads
		// what JSON.parse gives, the last of two names, and ignores
		// members it does not know.
		in, err = lenient(line)
	}
	if err != nil {
		return errorLine{err.Error()}
	}
	switch bug {
	case "empty-scope-as-absent":
		// if (!tool.approvalScope) … — "" is a value, not absent.
		for i := range in.Contract.Tools {
			if in.Contract.Tools[i].ApprovalScope.Is("") {
				in.Contract.Tools[i].ApprovalScope = assess.Absent
			}
		}
	case "scope-defaults-to-name":
		// A tool without approvalScope is approved for its own name.
		for i := range in.Contract.Tools {
			if t := &in.Contract.Tools[i]; !t.ApprovalScope.Present() {
				t.ApprovalScope = assess.Some(t.Name)
			}
		}
	case "any-entry-of-a-name":
		// Looks for the requested version among every tool of the name.
		for i, t := range in.Contract.Tools {
			if t.Name == in.Request.Tool.Name && t.Version == in.Request.Tool.Version {
				in.Contract.Tools[0], in.Contract.Tools[i] = in.Contract.Tools[i], in.Contract.Tools[0]
				break
			}
		}
	case "approval-not-active":
		// Invents one code for every approval that is not active.
		if v := assess.Assess(&in); v.Code == assess.CodeApprovalStatus {
			return map[string]string{"status": v.Status.String(), "code": "approval_not_active", "correlationId": v.CorrelationID}
		}
	case "dedupe-missing":
		// Lists each missing name once.
		v := assess.Assess(&in)
		var once []string
		for _, m := range v.MissingArguments {
			if !slices.Contains(once, m) {
				once = append(once, m)
			}
		}
		if v.MissingArguments != nil {
			v.MissingArguments = once
		}
		return v
	case "no-trim":
		// Takes "   " for a value: only "" is missing.
		v := assess.Assess(&in)
		if v.Code != assess.CodeInvalidArguments {
			return v
		}
		var still []string
		for _, m := range v.MissingArguments {
			if s, ok := in.Request.Arguments[m].(string); !ok || s == "" {
				still = append(still, m)
			}
		}
		if len(still) > 0 {
			v.MissingArguments = still
			return v
		}
		t := in.Contract.Tools
		for i := range t {
			if t[i].Name == in.Request.Tool.Name {
				t[i].RequiredArguments = []string{}
				break
			}
		}
	case "approval-before-environment":
		// Asks for approval before it looks at the environment.
		if v := assess.Assess(&in); v.Code == assess.CodeEnvironmentNotReady {
			ready := in
			ready.Environment = assess.Environment{Status: assess.Some("ready")}
			if w := assess.Assess(&ready); w.Status == assess.StatusRequiresApproval {
				return w
			}
			return v
		}
	case "sorted-missing":
		// Lists missing arguments alphabetically, not in contract order.
		v := assess.Assess(&in)
		for i := 1; i < len(v.MissingArguments); i++ {
			for j := i; j > 0 && v.MissingArguments[j] < v.MissingArguments[j-1]; j-- {
				v.MissingArguments[j], v.MissingArguments[j-1] = v.MissingArguments[j-1], v.MissingArguments[j]
			}
		}
		return v
	}
	return assess.Assess(&in)
}

// lenient reads an admission input the way JSON.parse and the book's
// function do: unknown members ignored, the last of two names kept, null
// the same as absent. It refuses only what the book's function would
// crash on (a missing contract.tools, request.tool or environment).
func lenient(line []byte) (assess.Input, error) {
	type opt = *string
	var w struct {
		Contract *struct {
			Tools []struct {
				Name              string   `json:"name"`
				Version           opt      `json:"version"`
				EffectClass       opt      `json:"effectClass"`
				RequiredArguments []string `json:"requiredArguments"`
				ApprovalScope     opt      `json:"approvalScope"`
			} `json:"tools"`
		} `json:"contract"`
		Request *struct {
			CorrelationID string `json:"correlationId"`
			Tool          *struct {
				Name    string `json:"name"`
				Version opt    `json:"version"`
			} `json:"tool"`
			Arguments map[string]any `json:"arguments"`
		} `json:"request"`
		Environment *struct {
			Status opt `json:"status"`
		} `json:"environment"`
		Approval *struct {
			Status string `json:"status"`
			Scope  opt    `json:"scope"`
		} `json:"approval"`
		InvocationRecord *struct {
			CorrelationID, Status, VerificationStatus, EffectStatus opt
		} `json:"invocationRecord"`
	}
	if err := json.Unmarshal(line, &w); err != nil {
		return assess.Input{}, err
	}
	if w.Contract == nil || w.Request == nil || w.Request.Tool == nil || w.Environment == nil {
		return assess.Input{}, fmt.Errorf("TypeError: cannot read properties of undefined")
	}
	o := func(p opt) assess.Opt {
		if p == nil {
			return assess.Absent
		}
		return assess.Some(*p)
	}
	var in assess.Input
	for _, t := range w.Contract.Tools {
		in.Contract.Tools = append(in.Contract.Tools, assess.Tool{Name: t.Name, Version: o(t.Version), EffectClass: o(t.EffectClass),
			RequiredArguments: t.RequiredArguments, ApprovalScope: o(t.ApprovalScope)})
	}
	in.Request = assess.Request{CorrelationID: w.Request.CorrelationID, Arguments: w.Request.Arguments,
		Tool: assess.ToolRef{Name: w.Request.Tool.Name, Version: o(w.Request.Tool.Version)}}
	in.Environment = assess.Environment{Status: o(w.Environment.Status)}
	if a := w.Approval; a != nil {
		in.Approval = &assess.Approval{Status: a.Status, Scope: o(a.Scope)}
	}
	if r := w.InvocationRecord; r != nil {
		in.InvocationRecord = &assess.InvocationRecord{CorrelationID: o(r.CorrelationID), Status: o(r.Status),
			VerificationStatus: o(r.VerificationStatus), EffectStatus: o(r.EffectStatus)}
	}
	return in, nil
}
