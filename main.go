// Command toolgate is a terminal trainer for one question every AI-agent
// harness must answer: the model has named a tool and its arguments — before
// anything runs, may this call go ahead, and what does that answer NOT prove?
package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"toolgate/assess"
	"toolgate/classroom"
	"toolgate/cli"
	"toolgate/progress"
	"toolgate/scenarios"
	"toolgate/tui"
	"toolgate/watch"
)

func main() {
	stdoutTTY, stdinTTY := term.IsTerminal(os.Stdout.Fd()), term.IsTerminal(os.Stdin.Fd())
	width := 0
	for _, f := range []*os.File{os.Stdout, os.Stderr} {
		if w, _, err := term.GetSize(f.Fd()); err == nil && width == 0 {
			width = w
		}
	}
	os.Exit(cli.Run(os.Args[1:], cli.Env{
		Stdin:       os.Stdin,
		Stdout:      os.Stdout,
		Stderr:      os.Stderr,
		Getenv:      os.Getenv,
		Environ:     os.Environ(),
		StdoutIsTTY: stdoutTTY,
		StdinIsTTY:  stdinTTY,
		StderrIsTTY: term.IsTerminal(os.Stderr.Fd()),
		Width:       width,
		// Asked only when styled Markdown is written to a terminal:
		// the terminal answers on stdin, so both must be one.
		DarkBackground: func() bool { return !stdinTTY || lipgloss.HasDarkBackground(os.Stdin, os.Stdout) },
		RunTUI:         runTUI,
		Serve:          serve,
	}))
}

// runTUI starts the trainer with the learner's saved progress, unless
// --no-save keeps it in memory.
func runTUI(o cli.TUIOptions) error {
	theme, err := tui.ParseTheme(o.Theme)
	if err != nil {
		return fmt.Errorf("--theme: %w", err)
	}
	opts := tui.Options{Scenarios: o.Scenarios, Lang: o.Lang, Track: o.Track, Scenario: o.Scenario,
		Step: o.Step, Theme: theme, Present: o.Present, Timer: o.Timer, NoMouse: o.NoMouse, Quiz: o.Quiz, Warnings: o.Warnings,
		// The practice's cases are drawn from a seed taken once, here.
		Seed: uint64(time.Now().UnixNano()),
		// What-if experiments are kept in the working directory, and the
		// trainer says where with the whole path.
		SaveScenario: func(s scenarios.Scenario) (string, error) {
			dir, err := os.Getwd()
			if err != nil {
				return "", err
			}
			return scenarios.SaveCopy(dir, s)
		}}
	if len(o.Dirs) > 0 {
		// The lecturer's files: E opens one in the editor, and the
		// trainer reloads after it (and, with --watch, on every change).
		opts.Reload, opts.Edit = o.Reload, editorFor(o.Dirs)
		if o.Watch {
			opts.Watch = func(changed func()) (func(), error) { return watch.Paths(o.Dirs, changed) }
		}
	}
	if !o.NoSave {
		store := progress.Store{Path: progress.DefaultPath()}
		p, notice, err := store.Load()
		if err != nil {
			// The file could not even be kept aside: say so and go on
			// without saving rather than overwrite it.
			fmt.Fprintln(os.Stderr, "toolgate:", err)
			opts.Warnings = append(opts.Warnings, err.Error()+" — progress is not saved in this session")
		} else {
			opts.Progress, opts.Notice, opts.Save = p, notice, store.Serial(p)
			if l, err := assess.ParseLang(p.Lang); err == nil && !o.LangGiven {
				opts.Lang = l
			}
		}
	}
	return tui.Run(opts)
}

// editorFor opens a scenario loaded from one of the lecturer's paths in
// $VISUAL, else $EDITOR, else vi (as git and rustlings do); a built-in
// scenario has no file to edit.
func editorFor(dirs []string) func(scenarios.Scenario) *exec.Cmd {
	return func(s scenarios.Scenario) *exec.Cmd {
		inside := false
		for _, d := range dirs {
			if rel, err := filepath.Rel(d, s.File); err == nil && !strings.HasPrefix(rel, "..") {
				inside = true
			}
		}
		if info, err := os.Stat(s.File); !inside || err != nil || !info.Mode().IsRegular() {
			return nil
		}
		editor := os.Getenv("VISUAL")
		if editor == "" {
			editor = os.Getenv("EDITOR")
		}
		args := strings.Fields(editor)
		if len(args) == 0 {
			args = []string{"vi"}
		}
		return exec.Command(args[0], append(args[1:], s.File)...)
	}
}

// serve runs the classroom server until a shutdown signal (SIGINT,
// SIGTERM or SIGHUP), then tells every student the session is ending and
// stops.
func serve(o cli.ServeOptions) error {
	// The log lines go to --log when given, else stderr; what is said at
	// start goes to both, so the log says which server wrote it.
	logTo, say := io.Writer(os.Stderr), io.Writer(os.Stderr)
	if o.Log != nil {
		logTo, say = o.Log, io.MultiWriter(os.Stderr, o.Log)
		fmt.Fprintf(o.Log, "%s toolgate: started, pid %d\n", time.Now().Format("2006-01-02 15:04:05"), os.Getpid())
	}
	state := filepath.Dir(progress.DefaultPath())
	hostKey := o.HostKey
	if hostKey == "" {
		hostKey = filepath.Join(state, "host_ed25519")
	}
	var room classroom.Room
	if o.RoomURL != "" || o.RoomListen != "" {
		sr, err := classroom.OpenSharedRoom(classroom.SharedRoomConfig{
			URL: o.RoomURL, Listen: o.RoomListen, Room: o.RoomName, Token: o.RoomToken, NKeyFile: o.RoomNKey,
			CAFile: o.RoomCA, Fingerprint: o.RoomFingerprint, StoreDir: filepath.Join(state, "nats"),
			Log: func(format string, v ...any) {
				fmt.Fprintf(logTo, time.Now().Format("15:04:05 ")+format+"\n", v...)
			},
		})
		if err != nil {
			return err
		}
		// After the server: its sessions leave the room first.
		defer sr.Close()
		room = sr
		fmt.Fprintf(say, "toolgate: room %q shared through NATS; this front-end is %s\n", o.RoomName, sr.ID())
		if o.RoomListen != "" {
			join := fmt.Sprintf("toolgate serve --room %s --room-url %s", o.RoomName, sr.URL)
			if sr.Fingerprint != "" {
				join += " --room-fingerprint " + sr.Fingerprint
			}
			if o.RoomNKey != "" {
				join += " --room-nkey " + o.RoomNKey
				fmt.Fprintf(say, "toolgate: front-ends prove themselves with the NKey %s (seed in %s: copy it to them)\n", sr.PublicKey, o.RoomNKey)
			} else {
				join = "TOOLGATE_ROOM_TOKEN=... " + join
			}
			fmt.Fprintf(say, "toolgate: hosting the room's NATS on %s; other front-ends join with:\n  %s\n", o.RoomListen, join)
		}
	}
	srv, err := classroom.New(classroom.Config{
		Listen: o.Listen, HostKeyPath: hostKey, MaxSessions: o.MaxSessions, Idle: o.Idle,
		LoginTimeout: o.LoginTimeout, MaxWaiting: o.MaxWaiting, MaxWaitingPerAddress: o.MaxWaitingPerAddress,
		LoginFailures: o.LoginFailures, MaxPTY: o.MaxPTY, MaxSessionsPerAddress: o.MaxSessionsPerAddress,
		ClassCode: o.ClassCode, AuthorizedKeys: o.AuthorizedKeys, Open: o.Open,
		PresenterKeys: o.PresenterKeys, PresenterCode: o.PresenterCode, NotesCode: o.NotesCode, Timer: o.Timer,
		Scenarios: o.Scenarios, Log: logTo, Room: room,
	})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", o.Listen)
	if err != nil {
		return err
	}
	if o.Open {
		fmt.Fprintln(say, "toolgate: WARNING: --open: anyone who can reach "+o.Listen+" gets in, without a code or key")
	}
	fmt.Fprintf(say, "toolgate: serving on %s (at most %d sessions, idle %v, login within %v)\n", o.Listen, o.MaxSessions, o.Idle, o.LoginTimeout)
	fmt.Fprintf(say, "toolgate: host key %s\ntoolgate: fingerprint %s\n", hostKey, srv.Fingerprint())
	if o.Log != nil {
		fmt.Fprintf(os.Stderr, "toolgate: the log goes to %s\n", o.LogPath)
	}
	return srv.Run(l)
}
