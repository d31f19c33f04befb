package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"toolgate/assess"
	"toolgate/look"
	"toolgate/qrtext"
	"toolgate/scenarios"
	"toolgate/walk"
)

// The room's question and its reveal as values, for a front-end that is
// not a terminal (the phones' web page): the same choices the SSH room's
// question offers (question.go) and the same verdict its reveal shows,
// so that nothing outside this package decides either.

// Poll is the room's question on a scenario, in one language.
type Poll struct {
	// Prompt is the question; Choices what a student may answer, in
	// order: Answer sends a choice's Step.
	Prompt  string
	Choices []PollChoice
}

// PollChoice is one answer to a Poll.
type PollChoice struct {
	Step  int
	Label string
	// Codes are the codes of the rule, when it has several: the student
	// picks one, which marks the answer on the phone only (the room
	// counts rules).
	Codes []PollCode
}

// PollCode is one code of a rule.
type PollCode struct {
	Code, Meaning string
}

// PollOf is the question the room asks of s, in l: on the admission
// track which rule fires (and which code, when it has several), on the
// outcome track which class, on the audit track which diagnostics.
func PollOf(s scenarios.Scenario, l assess.Lang) Poll {
	w := walk.Of(s, l)
	switch s.Track() {
	case scenarios.TrackAudit:
		options, _ := auditOptions(s)
		p := Poll{Prompt: pollText("pollAudit", l)}
		for i, o := range options {
			p.Choices = append(p.Choices, PollChoice{Step: i + 1, Label: o.In(l)})
		}
		return p
	case scenarios.TrackOutcome:
		p := Poll{Prompt: pollText("pollClass", l)}
		for i, st := range w.Steps {
			p.Choices = append(p.Choices, PollChoice{Step: i + 1, Label: st.Title})
		}
		return p
	case scenarios.TrackAdmission:
		p := Poll{Prompt: pollText("pollRule", l)}
		for i, st := range w.Steps {
			c := PollChoice{Step: i + 1, Label: fmt.Sprintf("%s %d · %s", tr("rule", l), i+1, st.Title)}
			if codes := codeOptions(i + 1); len(codes) > 1 {
				for _, code := range codes {
					c.Codes = append(c.Codes, PollCode{Code: code.String(), Meaning: code.Meaning(l)})
				}
			}
			p.Choices = append(p.Choices, c)
		}
		return p
	}
	return Poll{} // a scenario of no track asks nothing
}

// PollReveal is what the room's reveal shows of s, in one language.
type PollReveal struct {
	// Symbol and Headline are the verdict; Tone its tone, said in a word
	// too (Word), never by colour alone.
	Symbol, Headline, Word string
	Tone                   look.Tone
	// Decided is what decided, as the trainer says it ("rule 7,
	// approval_missing — Title", a class, diagnostics); Step is the
	// right choice, Code the right code ("" where none is asked).
	Decided string
	Step    int
	Code    string
	// NotProve are the verdict's lines of what it does NOT prove: the
	// rule's and the scenario's own.
	NotProve []PollLine
}

// PollLine is a labelled line.
type PollLine struct{ Label, Text string }

// RevealOf is the reveal of s, in l.
func RevealOf(s scenarios.Scenario, l assess.Lang) PollReveal {
	w := walk.Of(s, l)
	r := PollReveal{Symbol: w.Verdict.Symbol, Headline: w.Verdict.Headline, Tone: w.Verdict.Tone, Word: toneWord(w.Verdict.Tone, s.Track(), l)}
	switch res := w.Result.(type) {
	case walk.AdmissionAnswer:
		r.Step = w.Decisive
		if len(codeOptions(w.Decisive)) > 1 {
			r.Code = res.Verdict.Code.String() // as the choice offers it: approval_<status>
		}
		r.Decided = fmt.Sprintf("%s %d%s%s — %s", tr("rule", l), w.Decisive, tr("comma", l), res.Verdict.CodeName(), w.Steps[w.Decisive-1].Title)
	case walk.OutcomeAnswer:
		r.Step = w.Decisive
		r.Decided = res.Class.String()
		if w.Decisive >= 1 && w.Decisive <= len(w.Steps) {
			r.Decided += " — " + w.Steps[w.Decisive-1].Title
		}
	case walk.AuditAnswer:
		options, correct := auditOptions(s)
		r.Step = correct
		if correct >= 1 {
			r.Decided = options[correct-1].In(l)
		}
	}
	for _, d := range w.Verdict.Details {
		if d.Strong {
			r.NotProve = append(r.NotProve, PollLine{Label: d.Label, Text: d.Text})
		}
	}
	return r
}

// Mark says whether an answer (a choice's Step, and the code picked as
// the choice offers it, "" for none) was right: "right", "half" or
// "wrong", with the sentence the trainer says. As in the SSH room, the
// right rule is half right without the right code where the rule has
// several codes, its code not picked included.
func (r PollReveal) Mark(step int, code string, l assess.Lang) (mark, text string) {
	switch {
	case step == r.Step && code == r.Code:
		return "right", look.Yes + " " + fmt.Sprintf(tr("quizRight", l), r.Decided)
	case step == r.Step:
		return "half", "◐ " + pollText("pollHalf", l)
	}
	return "wrong", look.No + " " + fmt.Sprintf(pollText("pollWrong", l), r.Decided)
}

// toneWord says a verdict's tone in words, beside its symbol (never
// colour alone). On the admission track the tones are the verdict's own
// words — allowed, refused, held; an audit or an outcome allows and
// refuses nothing, so there they are words of no verdict: fine, a
// problem, wait.
func toneWord(t look.Tone, track scenarios.Track, l assess.Lang) string {
	neutral := track != scenarios.TrackAdmission
	switch t {
	case look.ToneGood:
		if neutral {
			return pollText("toneFine", l)
		}
		return pollText("toneGood", l)
	case look.ToneBad:
		if neutral {
			return pollText("toneProblem", l)
		}
		return pollText("toneBad", l)
	case look.ToneHold:
		if neutral {
			return pollText("toneWait", l)
		}
		return pollText("toneHold", l)
	case look.ToneUnknown:
	}
	return pollText("toneUnknown", l)
}

// viaText says how the answers came: over SSH, by phone.
func viaText(rs RoomMsg, l assess.Lang) string {
	return fmt.Sprintf(pollText("via", l), rs.Answered-rs.Phone, rs.Phone)
}

// joinPart is the phones' QR code with the link beside it (or under it,
// on a narrow screen), then the link alone, then nothing: the projector
// folds it first.
func joinPart(c common, url string, width int) part {
	// The short address is said, for a phone that cannot scan: its
	// student types the class code there. The code carries the link's
	// token too.
	short, _, _ := strings.Cut(url, "?")
	// Beside the code it says scan; alone, the link says only open:
	// there is nothing on the screen to scan.
	scan := c.styles.Verdict.Label.Render(pollText("phones", c.lang)) + "\n" + short
	link := c.styles.Verdict.Label.Render(pollText("phonesLink", c.lang)) + "\n" + short
	qr, err := qrtext.Text(url)
	if err != nil {
		return part{alts: []string{link, ""}}
	}
	// Drawn light on dark whatever the terminal's own colours: on a light
	// terminal the default colours would invert the code, which many
	// phones then cannot read.
	qr = qrStyle.Render(qr)
	var whole string
	if qrWidth := lipgloss.Width(qr); width >= qrWidth+2+lipgloss.Width(short) {
		whole = lipgloss.JoinHorizontal(lipgloss.Center, qr, "  ", scan)
	} else {
		whole = qr + "\n" + scan
	}
	return part{alts: []string{whole, link, ""}}
}

// qrStyle paints the QR code white on black (ANSI 15 on 0, which every
// colour profile keeps).
var qrStyle = lipgloss.NewStyle().Foreground(lipgloss.Color("15")).Background(lipgloss.Color("0"))

// pollTexts are the texts of a question asked away from a terminal: no
// key to press.
var pollTexts = map[string][2]string{
	"pollRule":    {"Which rule fires? Tap your answer.", "哪条规则会触发？点选你的答案。"},
	"pollClass":   {"Which class is this? Tap your answer: the questions in order.", "这属于哪一类？点选你的答案：按顺序列出的问题。"},
	"pollAudit":   {"Which diagnostics does this batch get? Tap your answer.", "这个批次会得到哪些诊断？点选你的答案。"},
	"pollHalf":    {"Half right: the rule is right, the code is not.", "答对一半：规则对了，代码不对。"},
	"pollWrong":   {"Not this one; %s decided.", "不是这个；实际由 %s 决定。"},
	"phones":      {"Answer by phone: scan, or open", "用手机作答：扫码，或打开"},
	"phonesLink":  {"Answer by phone: open", "用手机作答：打开"},
	"via":         {"%d answered over SSH, %d by phone", "%d 人通过 SSH 作答，%d 人用手机作答"},
	"toneGood":    {"allowed", "允许"},
	"toneBad":     {"refused", "拒绝"},
	"toneHold":    {"held", "暂缓"},
	"toneUnknown": {"unknown", "未知"},
	"toneFine":    {"fine", "正常"},
	"toneProblem": {"a problem", "有问题"},
	"toneWait":    {"wait", "待定"},
}

func pollText(key string, l assess.Lang) string { return pollTexts[key][l] }
