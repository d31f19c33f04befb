package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"toolgate/gatecheck"
	"toolgate/scenarios"
	"toolgate/vectors"
)

func newVectors(c *common) *cobra.Command {
	var track string
	cmd := &cobra.Command{
		Use:   "vectors",
		Short: "Write conformance vectors: one {\"id\",\"layer\",\"input\",\"expect\"} JSON line each",
		Long: `Write conformance vectors for a track as JSON Lines, one {"id":…,"layer":…,"input":…,
"expect":…} a line: every scenario of the track (the built-in ones, and yours with --scenarios), then a
generated set that makes every rule fire, every code and status appear, and tries every
field absent, null, "" and of a wrong type — the cases where implementations differ.

"input" is one JSON text exactly as a gate reads it (it may be wrong on purpose: a typo, a
duplicate name, a number where a string belongs). "expect" is what toolgate answers for
it, computed by its own decoder and core: a verdict {status, code, correlationId,
missingArguments?, effectStatus?} for admission, {diagnostics, pending} for the audit,
{class} for outcomes, or {"error": "..."} for an input toolgate refuses (a gate's message
need not match, only that it refuses). "layer" is "input" for those (for admission a gate
agrees by refusing, or by any answer but allowed) and "decision" for the rest.

Run a gate over them with 'toolgate check'.`,
		Example: `  toolgate vectors > admission.jsonl
  toolgate vectors --track audit | head -3
  toolgate vectors --scenarios my-course/ | jq -c .expect.code | sort | uniq -c`,
		Args:              cobra.NoArgs,
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, _ []string) error {
			vs, _, err := c.vectorSet(track)
			if err != nil {
				return err
			}
			return vectors.Write(cmd.OutOrStdout(), vs)
		},
	}
	cmd.Flags().StringVar(&track, "track", scenarios.TrackAdmission.String(), "the track: admission, audit or outcome")
	completeFlag(cmd, "track", c.completeTrack)
	return cmd
}

// vectorSet makes a track's vectors from the loaded scenarios.
func (c *common) vectorSet(track string) ([]vectors.Vector, scenarios.Track, error) {
	c.track = track
	t, err := c.trackFlag()
	if err != nil {
		return nil, 0, err
	}
	list, err := c.scenarioSet()
	if err != nil {
		return nil, 0, err
	}
	vs, err := vectors.For(t, list)
	if err != nil {
		return nil, 0, &exitError{ExitInvalid, err}
	}
	return vs, t, nil
}

func newCheck(c *common) *cobra.Command {
	var track, layer string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "check [--track T] [--layer L] [--timeout D] -- CMD [ARGS...]",
		Short: "Run your own gate over the conformance vectors and compare its answers",
		Long: `Run someone else's gate — a program in any language — over toolgate's conformance
vectors (see 'toolgate vectors') and compare its answers with toolgate's.

CMD is started once. Each vector's input goes to its stdin as one line; it answers one
JSON line per input on stdout, in order, in the shape 'toolgate assess' writes
({status, code, correlationId, missingArguments?, effectStatus?}; for --track audit
{diagnostics, pending}; for --track outcome {class}), or {"error": ...} for an input it
refuses. Members beyond these are ignored; names are case-sensitive.

The vectors come in two layers, checked and reported apart (--layer picks one):
  decision  inputs toolgate's input check accepts: the answer must be the book's verdict.
  input     inputs the check refuses (a typo, a name twice, null for a string, a member
            the book's function needs): refusing them, or any answer but allowed, agrees;
            answering allowed fails open. A bare port of the book's function passes the
            decision layer and is told here which of these it lets through.

For each disagreement toolgate prints the input, what it expected and what came, and its
own trace of why the expected rule fires (in --lang); then a summary per rule and per
code. Exit status 0 when the gate agrees on every vector, 1 when it disagrees on any,
2 when CMD cannot be run or stops answering: it exits, hangs past --timeout, prints a line
that is not JSON or longer than 1 MiB, or more lines than inputs. Then what it printed on
stderr is shown.`,
		Example: `  toolgate check -- python3 my_gate.py
  toolgate check --track audit -- node audit-gate.js
  toolgate check --timeout 30s --lang zh -- ./gate --strict
  toolgate check --layer decision -- node book-gate.mjs
  toolgate check -- toolgate assess        # toolgate against itself: all agree`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lang, err := c.language()
			if err != nil {
				return err
			}
			if timeout <= 0 {
				return &exitError{ExitUsage, fmt.Errorf("--timeout %s: want a positive duration such as 10s", timeout)}
			}
			if layer != "all" && layer != vectors.LayerDecision && layer != vectors.LayerInput {
				return &exitError{ExitUsage, fmt.Errorf("--layer %q: want decision, input or all", layer)}
			}
			vs, t, err := c.vectorSet(track)
			if err != nil {
				return err
			}
			vs = vectors.InLayer(vs, layer)
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			r, err := gatecheck.Run(ctx, gatecheck.Options{Track: t, Vectors: vs, Command: args, Timeout: timeout})
			var ge *gatecheck.GateError
			if errors.As(err, &ge) {
				gatecheck.WriteFailure(c.env.Stderr, ge, lang)
				return &exitError{code: ExitUsage}
			}
			if err != nil {
				return &exitError{ExitUsage, err}
			}
			gatecheck.WriteText(cmd.OutOrStdout(), r, lang)
			if r.Disagreements() > 0 {
				return &exitError{code: ExitInvalid}
			}
			return nil
		},
	}
	cmd.Flags().SetInterspersed(false) // flags after CMD are CMD's
	cmd.Annotations = map[string]string{flagsBeforeArgs: "true"}
	cmd.Flags().StringVar(&track, "track", scenarios.TrackAdmission.String(), "the track: admission, audit or outcome")
	completeFlag(cmd, "track", c.completeTrack)
	cmd.Flags().DurationVar(&timeout, "timeout", gatecheck.DefaultTimeout, "the longest wait for one answer (and for the gate to end)")
	cmd.Flags().StringVar(&layer, "layer", "all", "the vectors to run: decision (the book's verdicts), input (inputs the check refuses) or all")
	return cmd
}
