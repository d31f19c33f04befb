package classroom

import (
	"fmt"
	"strings"

	"charm.land/ssh"

	"toolgate/assess"
)

// refusal is what the server says to a session it does not serve, before
// any trainer runs: said in the session's language (its LANG), on one
// line of at most 60 columns, so that a student at a narrow terminal
// reads it whole. What a served session is told comes through its
// trainer (tui.Goodbye, tui.ClampedMsg).
type refusal uint8

const (
	// roomFull: the sessions are at the cap (the number given).
	roomFull refusal = iota + 1
	// addressFull: the sessions of one address are at its cap.
	addressFull
	// commandRefused: a command was asked, not the trainer.
	commandRefused
	// noTerminal: no PTY was asked for.
	noTerminal
)

var refusals = [...]struct{ en, zh string }{
	roomFull:       {"Sorry, the room is full (%d seats): try again soon.", "抱歉，教室已满（%d 个座位）：请稍后再试。"},
	addressFull:    {"Sorry, %d sessions are open from your address already.", "抱歉，你的地址已打开 %d 个会话，已达上限。"},
	commandRefused: {"toolgate serves the interactive trainer only: no commands.", "toolgate 只提供交互式训练器：请不带命令连接。"},
	noTerminal:     {"Requires an active PTY: connect from a terminal.", "需要交互式终端（PTY）：请在终端中连接。"},
}

// text is the refusal in l; n is the cap it names, if it names one.
func (r refusal) text(l assess.Lang, n int) string {
	format := refusals[r].en
	if l == assess.Chinese {
		format = refusals[r].zh
	}
	if strings.Contains(format, "%d") {
		return fmt.Sprintf(format, n)
	}
	return format
}

// langOf is the language a session asked for in its environment (LANG,
// LC_ALL…), or fallback (the lecture's) when it asked for none.
func langOf(sess ssh.Session, fallback assess.Lang) assess.Lang {
	env := func(name string) string {
		for _, kv := range sess.Environ() {
			if k, v, ok := strings.Cut(kv, "="); ok && k == name {
				return v
			}
		}
		return ""
	}
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if env(name) != "" {
			return assess.LangFromEnv(env)
		}
	}
	return fallback
}
