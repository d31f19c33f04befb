package tui

import (
	"fmt"

	"toolgate/assess"
)

// What a server says to a session, beyond the room's state: each an
// enum the session says in its own language, in at most noticeWidth
// cells, so that the footer of a 60-column terminal shows it whole.

// noticeWidth is the most a server's notice may take: 60 columns less the
// footer's "! ".
const noticeWidth = 58

// Goodbye is the room's last word to a session: why the session ends,
// and whether the lecture goes on without it.
type Goodbye uint8

const (
	// NoGoodbye means the room goes on.
	NoGoodbye Goodbye = iota
	// TakenOver says another presenter's login leads the room now.
	TakenOver
	// LectureOver says the server closes, and the room with it.
	LectureOver
	// ServerClosing says this server closes and the room goes on at the
	// others: connecting again the same way rejoins it.
	ServerClosing
	// HostClosing says this server hosts the shared room and closes: the
	// room stops everywhere until it is back.
	HostClosing
	// ClosingOutOfReach says this server closes while the shared room is
	// out of reach (frozen): nothing goes on for now.
	ClosingOutOfReach
)

var goodbyes = [...]struct{ name, en, zh string }{
	NoGoodbye: {"none", "", ""},
	TakenOver: {"taken over",
		"Another presenter logged in and leads: this session ends.",
		"另一位讲师已登录并接管教室：本会话结束。"},
	LectureOver: {"lecture over",
		"The lecture is over — this session ends now. Thank you!",
		"讲座结束，本会话就此关闭。谢谢！"},
	ServerClosing: {"server closing",
		"This server is closing, the lecture goes on: reconnect.",
		"本服务器即将关闭，讲座继续：请用同样的方式重新连接。"},
	HostClosing: {"host closing",
		"This server hosts the room and closes: the lecture pauses.",
		"本服务器承载教室，即将关闭：讲座暂停，待它恢复。"},
	ClosingOutOfReach: {"closing out of reach",
		"This server is closing, and the room is out of reach.",
		"本服务器即将关闭，教室也暂时连不上。"},
}

func (g Goodbye) String() string {
	if int(g) < len(goodbyes) {
		return goodbyes[g].name
	}
	return fmt.Sprintf("goodbye %d", g)
}

// MarshalText is the goodbye's name.
func (g Goodbye) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// Text is the goodbye in l ("" for NoGoodbye).
func (g Goodbye) Text(l assess.Lang) string {
	if int(g) >= len(goodbyes) {
		return ""
	}
	if l == assess.Chinese {
		return goodbyes[g].zh
	}
	return goodbyes[g].en
}

// ClampedMsg tells a session that its terminal is larger than the server
// draws: the size it has, and the size it is drawn at.
type ClampedMsg struct {
	Width, Height           int
	DrawnWidth, DrawnHeight int
}

// Text is the notice in l.
func (m ClampedMsg) Text(l assess.Lang) string {
	format := "Your terminal is %d×%d; drawn at most %d×%d."
	if l == assess.Chinese {
		format = "你的终端为 %d×%d；本会话最多按 %d×%d 绘制。"
	}
	return fmt.Sprintf(format, m.Width, m.Height, m.DrawnWidth, m.DrawnHeight)
}
