package web

import (
	"crypto/subtle"

	"toolgate/assess"
)

// Our own messages: the only text a refusal shows (nothing a client
// sent is ever echoed).
const (
	msgWrongCode    = "wrongCode"
	msgNotForPhones = "notForPhones"
	msgFull         = "full"
	msgForbidden    = "forbidden"
	msgBad          = "bad"
	msgJoinFirst    = "joinFirst"
	msgClosed       = "notOpen"
	msgOtherRound   = "otherRound"
	msgBadRound     = "badRound"
	msgBadChoice    = "badChoice"
	msgBadCode      = "badCode"
	msgNoCodes      = "noCodes"
)

var texts = [2]map[string]string{
	{
		"title": "toolgate · the room's poll", "langName": "English", "switch": "中文",
		"joinHead": "Join the lecture", "codeLabel": "Class code (on the projector)", "join": "Join",
		"joinHint":     "Scanned the QR code? You are joining by its link.",
		"wrongCode":    "That code is not the class code. Look at the projector and try again.",
		"notForPhones": "That code is not for phones: type the class code.",
		"full":         "The room is full. Try again in a minute.", "forbidden": "Refused: reload the page and try again.",
		"bad": "That request was not understood.", "joinFirst": "Join first: type the class code.",
		"notOpen":    "The question is not open.",
		"otherRound": "That answer was for a question closed since: question %d is open now.",
		"badRound":   "round: send the round of the question answered (now %d; \"round\" in /events), or leave it out.",
		"badChoice":  "choice: send the step of one of the open question's choices, a number from 1 to %d (\"question\".\"choices\"[].\"step\" in /events).",
		"badCode":    "code: that is not a code of choice %d: send one of its codes (\"question\".\"choices\"[%d].\"codes\"[].\"code\" in /events), or leave it out.",
		"noCodes":    "code: choice %d has no codes to pick from: leave code out.",
		"waiting":    "Nothing live yet: the lecturer has not started.", "open": "Question %d is open",
		"revealed": "Question %d revealed", "closedStatus": "Wait for the next question.",
		"yours": "Your answer", "sent": "Answer sent. You may change it until the reveal.",
		"verdict": "Verdict", "decided": "What decided", "notProve": "What it does NOT prove",
		"offline": "Reconnecting… your answer is kept.", "scenario": "Scenario",
		"noAnswer": "You did not answer this question.",
	},
	{
		"title": "toolgate · 课堂投票", "langName": "中文", "switch": "English",
		"joinHead": "加入课堂", "codeLabel": "课堂口令（见投影）", "join": "加入",
		"joinHint":     "扫了二维码？正通过它的链接加入。",
		"wrongCode":    "口令不对。请看投影后重试。",
		"notForPhones": "这个口令不能用于手机：请输入课堂口令。",
		"full":         "课堂已满，请稍后再试。", "forbidden": "已拒绝：请刷新页面后重试。",
		"bad": "无法理解这个请求。", "joinFirst": "请先输入课堂口令加入。",
		"notOpen":    "当前没有开放的问题。",
		"otherRound": "这个答案针对的问题已经关闭：现在开放的是第 %d 题。",
		"badRound":   "round：请发送所答问题的轮次（现在是 %d；见 /events 的 \"round\"），或者不发送。",
		"badChoice":  "choice：请发送当前问题某个选项的 step，即 1 到 %d 之间的数字（见 /events 的 \"question\".\"choices\"[].\"step\"）。",
		"badCode":    "code：这不是选项 %d 的代码：请发送它的某个代码（见 /events 的 \"question\".\"choices\"[%d].\"codes\"[].\"code\"），或者不发送。",
		"noCodes":    "code：选项 %d 没有可选的代码：请不要发送 code。",
		"waiting":    "尚未开始：讲师还没有展示场景。", "open": "第 %d 题作答中",
		"revealed": "第 %d 题已揭晓", "closedStatus": "请等待下一题。",
		"yours": "你的答案", "sent": "已提交。揭晓前可以修改。",
		"verdict": "判断", "decided": "由什么决定", "notProve": "它不能推导出什么",
		"offline": "正在重新连接……你的答案已保留。", "scenario": "场景",
		"noAnswer": "你没有回答这道题。",
	},
}

func text(l assess.Lang, key string) string { return texts[l][key] }

func subtleEq(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
