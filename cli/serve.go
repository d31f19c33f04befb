package cli

import (
	"fmt"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"toolgate/scenarios"
)

// ServeOptions is what the command line hands to the SSH server.
type ServeOptions struct {
	Scenarios      []scenarios.Scenario
	Listen         string
	HostKey        string
	MaxSessions    int
	Idle           time.Duration
	ClassCode      string
	AuthorizedKeys string
	Open           bool
	PresenterKeys  string
	PresenterCode  string
}

func newServe(c *common) *cobra.Command {
	var o ServeOptions
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the trainer over SSH to a lecture hall, with a live poll",
		Long: `Serve toolgate over SSH: students run "ssh -p 2323 class@HOST" and are in the trainer,
nothing to install. The lecturer joins as presenter (--presenter-key or --presenter-code),
leads the live scenario, opens the question (o) and reveals it (v); the presenter's screen
shows the room's answers as they come, without names.

Someone must be able to log in, and only on purpose: give --class-code (students type it),
--authorized-keys, or --open to let anyone in (a warning is printed). Every flag can also come
from the environment: TOOLGATE_LISTEN, TOOLGATE_HOST_KEY, TOOLGATE_MAX_SESSIONS, TOOLGATE_IDLE,
TOOLGATE_CLASS_CODE, TOOLGATE_PRESENTER_CODE (codes in the environment stay out of "ps").`,
		Example: `  TOOLGATE_CLASS_CODE=tulip TOOLGATE_PRESENTER_CODE=orchid toolgate serve
  toolgate serve --listen 0.0.0.0:2323 --class-code tulip --presenter-key ~/.ssh/id_ed25519.pub
  toolgate serve --open --max-sessions 60 --idle 20m`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			all, err := c.scenarioSet()
			if err != nil {
				return err
			}
			o.Scenarios = all
			if o.MaxSessions < 1 {
				return &exitError{ExitUsage, fmt.Errorf("--max-sessions %d: want at least 1", o.MaxSessions)}
			}
			if o.ClassCode == "" && o.AuthorizedKeys == "" && !o.Open {
				return &exitError{ExitUsage, fmt.Errorf("serve: nobody could log in: give --class-code, --authorized-keys, or --open to let anyone in")}
			}
			if c.env.Serve == nil {
				return &exitError{ExitUsage, fmt.Errorf("serve is not available in this build")}
			}
			return c.env.Serve(o)
		},
	}
	env := func(name, def string) string {
		if v := c.env.Getenv(name); v != "" {
			return v
		}
		return def
	}
	maxSessions, _ := strconv.Atoi(env("TOOLGATE_MAX_SESSIONS", "200"))
	idle, err := time.ParseDuration(env("TOOLGATE_IDLE", "10m"))
	if err != nil {
		idle = 10 * time.Minute
	}
	f := cmd.Flags()
	f.StringVar(&o.Listen, "listen", env("TOOLGATE_LISTEN", "127.0.0.1:2323"), "address to listen on; a public one must be given on purpose")
	f.StringVar(&o.HostKey, "host-key", env("TOOLGATE_HOST_KEY", ""), "the server's ed25519 key, created on first start (default in the XDG state directory)")
	f.IntVar(&o.MaxSessions, "max-sessions", maxSessions, "most sessions at once; the next is told the room is full")
	f.DurationVar(&o.Idle, "idle", idle, "close a session after this long without a key")
	f.StringVar(&o.ClassCode, "class-code", env("TOOLGATE_CLASS_CODE", ""), "the code students type to get in")
	f.StringVar(&o.AuthorizedKeys, "authorized-keys", "", "an authorized_keys file of students' keys to admit")
	f.BoolVar(&o.Open, "open", false, "let anyone in without a code or key (prints a warning)")
	f.StringVar(&o.PresenterKeys, "presenter-key", "", "an authorized_keys file of the lecturer's keys")
	f.StringVar(&o.PresenterCode, "presenter-code", env("TOOLGATE_PRESENTER_CODE", ""), "the first session to type this code leads the room")
	return cmd
}
