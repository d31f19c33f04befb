// Command firstframe measures how long the trainer takes from exec to its
// first frame in tmux, against a shell printing the same line. For each
// run it starts a tmux server of its own (a 120x40 window), attaches in
// control mode, respawns the pane with the command and times the moment
// tmux sends the marker text, the header of the first frame. It prints
// each command's times (ms) and their median.
//
//	go build -o /tmp/toolgate . && go run ./scripts/firstframe -runs 20 /tmp/toolgate [/tmp/toolgate-before]
//
// tmux 3.3a now and then exits while a trainer starts (the control
// client then reads "%exit server exited unexpectedly"); such a run is
// started again.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// marker is in the first frame's header; the baseline prints it too.
const marker = "may this tool call go ahead?"

var errGone = errors.New("tmux exited")

func main() {
	runs := flag.Int("runs", 20, "runs of each command")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: firstframe [-runs N] TOOLGATE [TOOLGATE...]")
		os.Exit(2)
	}
	state, err := os.MkdirTemp("", "firstframe")
	check(err)
	defer func() { _ = os.RemoveAll(state) }() // best effort: it is in the temporary directory

	commands := []string{"printf '%s\\n' '" + marker + "'; sleep 1000"}
	names := []string{"shell printing the line"}
	for _, bin := range flag.Args() {
		abs, err := filepath.Abs(bin)
		check(err)
		commands = append(commands, "env XDG_STATE_HOME="+state+" "+abs)
		names = append(names, bin)
	}
	times := make([][]time.Duration, len(commands))
	for run := range *runs {
		for i, c := range commands {
			for try := 0; ; try++ {
				d, err := timeOf(c, run)
				if err == nil {
					times[i] = append(times[i], d)
					break
				}
				if try == 5 {
					check(err)
				}
			}
		}
	}
	for i, name := range names {
		slices.Sort(times[i])
		ms := make([]string, len(times[i]))
		for j, d := range times[i] {
			ms[j] = strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64)
		}
		fmt.Printf("%-28s median %6.1f ms  (%s)\n", name, float64(times[i][len(times[i])/2].Microseconds())/1000, strings.Join(ms, " "))
	}
}

// timeOf starts a tmux server, respawns its pane with command and returns
// how long the marker took to come.
func timeOf(command string, run int) (time.Duration, error) {
	socket := fmt.Sprintf("toolgate-firstframe-%d-%d", os.Getpid(), run)
	tmux := func(args ...string) *exec.Cmd {
		return exec.Command("tmux", append([]string{"-L", socket, "-f", "/dev/null"}, args...)...)
	}
	if err := tmux("new-session", "-d", "-s", "ff", "-x", "120", "-y", "40", "sleep 1000").Run(); err != nil {
		return 0, err
	}
	// Best effort, and often too late to matter: once the marker came,
	// the server was told to go already.
	defer func() { _ = tmux("kill-server").Run() }()
	ctl := tmux("-C", "attach", "-t", "ff")
	in, err := ctl.StdinPipe()
	if err != nil {
		return 0, err
	}
	out, err := ctl.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := ctl.Start(); err != nil {
		return 0, err
	}
	defer func() {
		// The control client ends with the server; how it ended is no
		// part of the measurement.
		_ = in.Close()
		_ = ctl.Wait()
	}()
	lines := make(chan string, 1024)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		_, _ = io.Copy(io.Discard, out) // drain, so that tmux never blocks
	}()
	// Let the client settle and drop what came before.
	time.Sleep(100 * time.Millisecond)
	for len(lines) > 0 {
		<-lines
	}
	start := time.Now()
	fmt.Fprintf(in, "respawn-pane -k -t ff %q\n", command)
	var seen strings.Builder
	deadline := time.After(10 * time.Second)
	for {
		select {
		case line, ok := <-lines:
			if !ok || strings.HasPrefix(line, "%exit") {
				return 0, errGone
			}
			if data, ok := strings.CutPrefix(line, "%output "); ok {
				if _, text, ok := strings.Cut(data, " "); ok {
					seen.WriteString(unescape(text))
				}
				if strings.Contains(seen.String(), marker) {
					d := time.Since(start)
					fmt.Fprintln(in, "kill-server")
					return d, nil
				}
			}
		case <-deadline:
			return 0, fmt.Errorf("no first frame from %s in 10 s", command)
		}
	}
}

// unescape undoes tmux control mode's octal escapes (\ooo).
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstframe:", err)
		os.Exit(1)
	}
}
