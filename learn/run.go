package learn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"toolgate/gatecheck"
	"toolgate/scenarios"
	"toolgate/vectors"
)

// Bounds on the build step, which runs the learner's toolchain on the
// learner's files.
const (
	// DefaultBuildTimeout bounds a build (a first Go build compiles
	// encoding/json; the next ones are cached).
	DefaultBuildTimeout = 2 * time.Minute
	// MaxBuildOutput is how much of a build's output is kept to show.
	MaxBuildOutput = 16 << 10
)

// Config says whose gate to check, and how.
type Config struct {
	// Dir is the learner's directory; Lang its language.
	Dir  string
	Lang Lang
	// Vectors are the vectors to run; nil is Vectors().
	Vectors []vectors.Vector
	// Timeout is the longest wait for one answer (gatecheck's); 0 is
	// gatecheck.DefaultTimeout.
	Timeout time.Duration
	// BuildTimeout bounds the build step; 0 is DefaultBuildTimeout.
	BuildTimeout time.Duration
	// BuildDir is where a compiled gate goes, outside Dir (so that a build
	// never re-runs the watcher); "" makes a temporary directory for the
	// run and removes it after.
	BuildDir string
}

// Outcome is one check of the learner's gate: the report, or what kept it
// from running.
type Outcome struct {
	Lang Lang
	Dir  string
	// Report is set when the gate answered every vector.
	Report *gatecheck.Report
	// Gate is set when the gate could not be run or stopped answering.
	Gate *gatecheck.GateError
	// Build is set when the build step failed.
	Build *BuildError
	// Missing lists the programs the language needs that are not on PATH.
	Missing []string
	// Canceled says the check was stopped (a newer save came).
	Canceled bool
	// Took is how long the check took, build included.
	Took time.Duration
	// Vectors are the vectors run, in order.
	Vectors []vectors.Vector
}

// BuildError is a build step that failed: the learner's code does not
// compile, or the toolchain failed.
type BuildError struct {
	Command string
	// Status is how the build ended ("exit status 1", "killed after 2m").
	Status string
	// Output is the start of what it printed, escaped for a terminal.
	Output string
}

func (e *BuildError) Error() string { return e.Command + ": " + e.Status }

var allVectors = sync.OnceValues(func() ([]vectors.Vector, error) {
	return vectors.For(scenarios.TrackAdmission, scenarios.InTrack(scenarios.Builtin(), scenarios.TrackAdmission))
})

// Vectors are the admission vectors the exercise track runs: the built-in
// scenarios (the book's seven tests first), then the generated ones, as
// `toolgate vectors` writes them.
func Vectors() []vectors.Vector {
	vs, err := allVectors()
	if err != nil {
		panic("learn: the built-in vectors do not build: " + err.Error())
	}
	return vs
}

// Check builds the learner's gate when the language needs it, and runs it
// over the vectors through gatecheck, under its limits.
func Check(ctx context.Context, c Config) (o Outcome) {
	start := time.Now()
	o = Outcome{Lang: c.Lang, Dir: c.Dir, Vectors: c.Vectors}
	if o.Vectors == nil {
		o.Vectors = Vectors()
	}
	defer func() {
		o.Took = time.Since(start)
		o.Canceled = ctx.Err() != nil
	}()
	if o.Missing = c.Lang.Missing(); len(o.Missing) > 0 {
		return o
	}
	dir, err := filepath.Abs(c.Dir)
	if err != nil {
		o.Gate = &gatecheck.GateError{Msg: err.Error()}
		return o
	}
	tc := c.Lang.toolchain()
	out := c.BuildDir
	if tc.build != nil && out == "" {
		out, err = os.MkdirTemp("", "toolgate-learn-")
		if err != nil {
			o.Gate = &gatecheck.GateError{Msg: fmt.Sprintf("a directory for the build: %v", err)}
			return o
		}
		// A temporary directory left behind is no reason to fail the run.
		defer func() { _ = os.RemoveAll(out) }()
	}
	env := gateEnv(c.Lang)
	if tc.build != nil {
		if o.Build = build(ctx, dir, tc.build(out), env, c.BuildTimeout); o.Build != nil {
			return o
		}
	}
	cmd := tc.run(out)
	if c.Lang == JavaScript || c.Lang == Python {
		// The harness by its whole path: gatecheck starts it in toolgate's
		// working directory, and the harness finds the decision beside it.
		cmd[len(cmd)-1] = filepath.Join(dir, cmd[len(cmd)-1])
	}
	r, err := gatecheck.Run(ctx, gatecheck.Options{Track: scenarios.TrackAdmission, Vectors: o.Vectors,
		Command: cmd, Timeout: c.Timeout, EndTimeout: 2 * time.Second, Env: env})
	var ge *gatecheck.GateError
	switch {
	case errors.As(err, &ge):
		o.Gate = ge
	case err != nil:
		o.Gate = &gatecheck.GateError{Msg: err.Error()}
	default:
		o.Report = &r
	}
	return o
}

// gateEnv is the environment of the build and the gate: toolgate's, with
// what keeps the learner's directory unchanged by a run (no __pycache__)
// and a Go build to its own module.
func gateEnv(l Lang) []string {
	env := os.Environ()
	switch l {
	case Python:
		env = append(env, "PYTHONDONTWRITEBYTECODE=1", "PYTHONIOENCODING=utf-8")
	case Go:
		env = append(env, "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=")
	case JavaScript, Java:
		// toolgate's environment as it is.
	}
	return env
}

// build runs a build command in dir with a bound on its time and on the
// output kept; its whole process group is killed when it runs too long.
func build(ctx context.Context, dir string, args, env []string, timeout time.Duration) *BuildError {
	if timeout <= 0 {
		timeout = DefaultBuildTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = time.Second
	killGroup(cmd)
	var out headBuffer
	out.max = MaxBuildOutput
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		return nil
	}
	status := err.Error()
	if ctx.Err() == context.DeadlineExceeded {
		status = fmt.Sprintf("stopped after %s", timeout)
	}
	return &BuildError{Command: strings.Join(args, " "), Status: status, Output: gatecheck.Sanitize(out.Bytes())}
}

// headBuffer keeps the first max bytes written to it; it never blocks the
// writer.
type headBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	max     int
	dropped int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	room := min(max(h.max-h.buf.Len(), 0), len(p))
	h.buf.Write(p[:room])
	h.dropped += len(p) - room
	return len(p), nil
}

// Bytes is what was kept, with a note of what was not.
func (h *headBuffer) Bytes() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	b := bytes.Clone(h.buf.Bytes())
	if h.dropped > 0 {
		b = fmt.Appendf(b, "\n… (%d more bytes not kept)", h.dropped)
	}
	return b
}
