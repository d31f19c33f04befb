// gate.go — the input's types and the line harness: toolgate writes one
// JSON input a line on stdin; main turns each into a call of
// assessToolInvocation and writes its answer as one JSON line on stdout.
// You do not need to edit it (except checkInput, the optional last stage).
//
//	go build -o gate . && ./gate < inputs.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Input is one admission input.
type Input struct {
	Contract         Contract          `json:"contract"`
	Request          Request           `json:"request"`
	Environment      Environment       `json:"environment"`
	Approval         *Approval         `json:"approval"`
	InvocationRecord *InvocationRecord `json:"invocationRecord"`
}

// Contract is the tools the harness offers.
type Contract struct {
	Version *string `json:"version"`
	Tools   []Tool  `json:"tools"`
}

// Tool is one entry of the contract.
type Tool struct {
	Name              string   `json:"name"`
	Version           *string  `json:"version"`
	EffectClass       *string  `json:"effectClass"`
	RequiredArguments []string `json:"requiredArguments"`
	ApprovalScope     *string  `json:"approvalScope"`
}

// Request is what the model asked for. Arguments holds any JSON values
// (string, float64, bool, nil, []any, map[string]any); nil when absent.
type Request struct {
	CorrelationID string         `json:"correlationId"`
	Tool          ToolRef        `json:"tool"`
	Arguments     map[string]any `json:"arguments"`
}

// ToolRef names the tool and the version asked for.
type ToolRef struct {
	Name    string  `json:"name"`
	Version *string `json:"version"`
}

// Environment is the caller's snapshot of the environment.
type Environment struct {
	Status *string `json:"status"`
}

// Approval is the caller's snapshot of an approval.
type Approval struct {
	Status string  `json:"status"`
	Scope  *string `json:"scope"`
}

// InvocationRecord is a record of an earlier attempt of this call.
type InvocationRecord struct {
	CorrelationID      *string `json:"correlationId"`
	Status             *string `json:"status"`
	EffectStatus       *string `json:"effectStatus"`
	VerificationStatus *string `json:"verificationStatus"`
}

// Verdict is the answer, in the book's member order.
type Verdict struct {
	Status           string   `json:"status"`
	Code             string   `json:"code"`
	CorrelationID    string   `json:"correlationId"`
	MissingArguments []string `json:"missingArguments,omitempty"`
	EffectStatus     string   `json:"effectStatus,omitempty"`
}

// checkInput is the optional last stage, toolgate's own input check (not
// the book's): return a message to refuse a line the book's function
// would misread or crash on, or "" to let it through. It sees the raw
// text: encoding/json keeps the last of two members of one name, and
// matches member names without regard to case.
func checkInput(line []byte) string {
	return ""
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	// Answers go to stdout, one a line; what your code prints with fmt
	// goes to stderr, where toolgate shows it, so that it never breaks a
	// line.
	out := bufio.NewWriter(os.Stdout)
	os.Stdout = os.Stderr
	for {
		line, err := in.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			b, _ := json.Marshal(answer(line))
			out.Write(append(b, '\n'))
			out.Flush()
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}

func answer(line []byte) (out any) {
	defer func() {
		if e := recover(); e != nil {
			out = map[string]string{"error": fmt.Sprintf("panic: %v%s", e, where())}
		}
	}()
	if refusal := checkInput(line); refusal != "" {
		return map[string]string{"error": refusal}
	}
	var input Input
	if err := json.Unmarshal(line, &input); err != nil {
		return map[string]string{"error": "not an input: " + err.Error()}
	}
	v := assessToolInvocation(input)
	if v.Status == "" {
		return map[string]string{"error": "no verdict: assessToolInvocation returned a Verdict without a status"}
	}
	return v
}

// where is the place in your files where a panic happened, as
// " (assess.go:12)".
func where() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if file := filepath.Base(f.File); strings.HasSuffix(file, ".go") && file != "gate.go" && !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf(" (%s:%d)", file, f.Line)
		}
		if !more {
			return ""
		}
	}
}
