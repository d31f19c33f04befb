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
	"strings"
	"time"

	"toolgate/assess"
	"toolgate/decode"
)

func main() {
	track := flag.String("track", "admission", "admission, audit or outcome")
	bug := flag.String("bug", "", "plant a mistake: empty-scope-as-absent, approval-before-environment, sorted-missing")
	misbehave := flag.String("misbehave", "", "break the protocol: hang, exit-early, garbage, flood, extra-line, stderr-flood, slow-exit")
	flag.Parse()

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
		answer(decide(*track, *bug, in.Bytes()))
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

func decide(track, bug string, line []byte) any {
	switch track {
	case "audit":
		in, err := decode.Audit(line)
		if err != nil {
			return errorLine{err.Error()}
		}
		r, err := assess.Audit(in)
		if err != nil {
			return errorLine{err.Error()}
		}
		return r
	case "outcome":
		in, err := decode.Outcome(line)
		if err != nil {
			return errorLine{err.Error()}
		}
		class, _, err := assess.Classify(in)
		if err != nil {
			return errorLine{err.Error()}
		}
		return map[string]string{"class": class.String()}
	}
	in, err := decode.Input(line)
	if err != nil {
		return errorLine{err.Error()}
	}
	switch bug {
	case "empty-scope-as-absent":
		// if (!tool.approvalScope) scope = tool.name — "" is a value.
		for i := range in.Contract.Tools {
			if s := in.Contract.Tools[i].ApprovalScope; s != nil && *s == "" {
				in.Contract.Tools[i].ApprovalScope = nil
			}
		}
	case "approval-before-environment":
		// Asks for approval before it looks at the environment.
		if v := assess.Assess(&in); v.Code == assess.CodeEnvironmentNotReady {
			ready := in
			ready.Environment = &assess.Environment{Status: "ready"}
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
