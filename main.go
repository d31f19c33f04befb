// Command toolgate is a terminal trainer for one question every AI-agent
// harness must answer: the model has named a tool and its arguments — before
// anything runs, may this call go ahead, and what does that answer NOT prove?
package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/term"

	"toolgate/assess"
	"toolgate/classroom"
	"toolgate/classroom/config"
	"toolgate/classroom/natshost"
	"toolgate/classroom/room"
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
	// The signals first: one that comes after anything below is said (or
	// while a shared room's NATS is waited for) ends the lecture with a
	// goodbye and a line in the log, never the process as it stands.
	ctx, stop := classroom.NotifyShutdown(context.Background())
	defer stop()
	fmt.Fprint(os.Stderr, o.Notices)
	cfg := o.Config
	// The log lines go to --log when given, else stderr; what is said at
	// start goes to both, so the log says which server wrote it.
	logTo, say := io.Writer(os.Stderr), io.Writer(os.Stderr)
	logf := func(format string, v ...any) {
		fmt.Fprintf(logTo, time.Now().Format("15:04:05 ")+format+"\n", v...)
	}
	if o.Log != nil {
		logTo, say = o.Log, io.MultiWriter(os.Stderr, o.Log)
		fmt.Fprintf(o.Log, "%s toolgate: started, pid %d\n", time.Now().Format("2006-01-02 15:04:05"), os.Getpid())
	}
	state := filepath.Dir(progress.DefaultPath())
	if cfg.HostKeyPath == "" {
		cfg.HostKeyPath = filepath.Join(state, "host_ed25519")
	}
	if cfg.Room.StoreDir == "" {
		cfg.Room.StoreDir = filepath.Join(state, "nats")
	}
	var rm room.Room
	if cfg.Room.Shared() {
		sr, err := room.OpenShared(ctx, cfg.Room, logf)
		if err != nil {
			if ctx.Err() != nil {
				logf("%s: stopped before serving", classroom.Why(ctx))
				return nil
			}
			return err
		}
		// After the server: its sessions leave the room first.
		defer sr.Close()
		rm = sr
		fmt.Fprintf(say, "toolgate: room %q shared through NATS; this front-end is %s\n", cfg.Room.Name, sr.ID())
		if cfg.Room.Listen != "" {
			join := fmt.Sprintf("toolgate serve --room %s --room-url %s", cfg.Room.Name, sr.URL)
			if sr.Fingerprint != "" {
				join += " --room-fingerprint " + sr.Fingerprint
			}
			if cfg.Room.NKeyFile != "" {
				join += " --room-nkey " + cfg.Room.NKeyFile
				fmt.Fprintf(say, "toolgate: front-ends prove themselves with the NKey %s (seed in %s: copy it to them)\n", sr.PublicKey, cfg.Room.NKeyFile)
			} else {
				join = "TOOLGATE_ROOM_TOKEN=... " + join
			}
			fmt.Fprintf(say, "toolgate: hosting the room's NATS on %s; other front-ends join with:\n  %s\n", cfg.Room.Listen, join)
		}
	}
	var wl net.Listener
	if cfg.Web.On() {
		// Listened to first: the QR code's link needs the port taken.
		var err error
		if wl, err = net.Listen("tcp", cfg.Web.Listen); err != nil {
			return fmt.Errorf("--web %s: %w", cfg.Web.Listen, err)
		}
		defer func() { _ = wl.Close() }()
		if cfg.Web.URL == "" {
			cfg.Web.URL = webBase(cfg.Web.TLS, wl.Addr())
		}
	}
	srv, err := classroom.New(cfg, classroom.Lecture{Scenarios: o.Scenarios, Log: logTo, Room: rm, Lang: o.Lang})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return err
	}
	if cfg.Open {
		fmt.Fprintln(say, "toolgate: WARNING: --open: anyone who can reach "+cfg.Listen+" gets in, without a code or key")
	}
	fmt.Fprintf(say, "toolgate: serving on %s (at most %d sessions, idle %v, login within %v)\n", cfg.Listen, cfg.MaxSessions, cfg.Idle, cfg.LoginTimeout)
	fmt.Fprintf(say, "toolgate: host key %s\ntoolgate: fingerprint %s\n", cfg.HostKeyPath, srv.Fingerprint())
	if o.Log != nil {
		fmt.Fprintf(os.Stderr, "toolgate: the log goes to %s\n", o.LogPath)
	}
	if cfg.Web.On() {
		if err := serveWeb(srv, wl, cfg.Web, filepath.Join(state, "web"), say); err != nil {
			_ = srv.Close()
			return err
		}
	}
	return srv.Run(ctx, l)
}

// serveWeb serves the phones' page beside SSH: over TLS with a
// certificate this host makes (its fingerprint said), or in plain HTTP
// with a warning, as --room-listen's NATS is.
func serveWeb(srv *classroom.Server, wl net.Listener, w config.Web, certDir string, say io.Writer) error {
	var tlsCfg *tls.Config
	host, _, _ := net.SplitHostPort(w.Listen)
	if w.TLS {
		// The certificate names the host phones reach (made once; a
		// phone asks to trust it either way: no authority signed it).
		if u, err := url.Parse(w.BaseURL()); err == nil && u.Hostname() != "" {
			host = u.Hostname()
		}
		if w.CertDir != "" {
			certDir = w.CertDir
		}
		cert, err := natshost.Certificate(certDir, host)
		if err != nil {
			return err
		}
		tlsCfg = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		fmt.Fprintf(say, "toolgate: phones' page over HTTPS on %s; certificate fingerprint %s (a phone asks to trust it once)\n", wl.Addr(), natshost.Fingerprint(cert.Certificate[0]))
	} else {
		fmt.Fprintf(say, "toolgate: phones' page on http://%s\n", wl.Addr())
		if listenHost, _, _ := net.SplitHostPort(w.Listen); !config.Loopback(listenHost) {
			fmt.Fprintln(say, "toolgate: WARNING: --web without --web-tls: plain HTTP; anyone on the network sees the page and its cookies (a lecture LAN only)")
		}
	}
	fmt.Fprintf(say, "toolgate: phones join at %s (the QR code on the projector and the notes screen; --web-url if phones reach this machine by another address)\n", w.BaseURL())
	go func() {
		if err := srv.ServeWeb(wl, tlsCfg); err != nil {
			fmt.Fprintf(say, "toolgate: phones' page: %v\n", err)
		}
	}()
	return nil
}

// webBase is the phones' page's address as a phone on the LAN reaches
// it: the port taken, and for a page on every address (0.0.0.0, ::) the
// machine's first LAN address (a loopback one would lead nowhere).
func webBase(tls bool, addr net.Addr) string {
	scheme := "http"
	if tls {
		scheme = "https"
	}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return scheme + "://" + addr.String()
	}
	ip := tcp.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
					ip = n.IP
					break
				}
			}
		}
	}
	return scheme + "://" + net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port))
}
