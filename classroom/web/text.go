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
		"notOpen": "The question is not open.",
		"waiting": "Nothing live yet: the lecturer has not started.", "open": "Question %d is open",
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
		"notOpen": "当前没有开放的问题。",
		"waiting": "尚未开始：讲师还没有展示场景。", "open": "第 %d 题作答中",
		"revealed": "第 %d 题已揭晓", "closedStatus": "请等待下一题。",
		"yours": "你的答案", "sent": "已提交。揭晓前可以修改。",
		"verdict": "判断", "decided": "由什么决定", "notProve": "它不能推导出什么",
		"offline": "正在重新连接……你的答案已保留。", "scenario": "场景",
		"noAnswer": "你没有回答这道题。",
	},
}

func text(l assess.Lang, key string) string { return texts[l][key] }

func subtleEq(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
