package cli

import (
	"errors"
	"regexp"
	"strings"

	"toolgate/assess"
	"toolgate/decode"
)

// `toolgate audit --lang zh` says its errors in Chinese, as every text a
// learner sees in Chinese mode is (field names, IDs and codes aside). The
// stream says its own words (positions, refusals, how it ended) in the
// answerer's language (streamText); audit's own errors are made in the
// language here (auditAnswerIn). The decoder says what is wrong with a
// value as an English message, which messageZh translates; a message it
// does not know (the JSON parser's detail of text that is not JSON) is
// left as it is.

// auditAnswerIn audits batches, its input errors in a language.
func auditAnswerIn(l assess.Lang) answerFunc {
	return func(raw []byte) (any, error) {
		in, err := decode.Audit(raw)
		if err != nil {
			return nil, localError{err, l}
		}
		r, err := assess.Audit(in)
		if err != nil {
			return nil, localError{err, l}
		}
		return &r, nil
	}
}

// localError is an input error said in a language.
type localError struct {
	err  error
	lang assess.Lang
}

func (e localError) Unwrap() error { return e.err }

func (e localError) Error() string {
	if e.lang != assess.Chinese {
		return e.err.Error()
	}
	var ae *assess.AuditError
	if errors.As(e.err, &ae) {
		return ae.Text(e.lang)
	}
	var des decode.Errors
	if errors.As(e.err, &des) {
		parts := make([]string, len(des))
		for i, de := range des {
			parts[i] = decodeErrorZh(de)
		}
		return strings.Join(parts, "；")
	}
	var de *decode.Error
	if errors.As(e.err, &de) {
		return decodeErrorZh(de)
	}
	return e.err.Error()
}

// decodeErrorZh says a decoder error in Chinese: the path as it is, the
// message translated where it is one the decoder writes.
func decodeErrorZh(e *decode.Error) string {
	path := e.Path
	if path == "" {
		path = "输入"
	}
	return path + "：" + messageZh(e.Msg)
}

var (
	reWant     = regexp.MustCompile(`^want (.+), got (.+)$`)
	reUnknown  = regexp.MustCompile(`^unknown field(?: \(did you mean (.+)\?\))?(?:; (?:known fields|an input has) (.+))?$`)
	reRequired = regexp.MustCompile(`^required(?:: an array of IDs \(\[\] for none\))?$`)
	kindsZh    = map[string]string{"string": "字符串", "number": "数字", "boolean": "布尔值", "array": "数组", "object": "对象", "null": "null"}
	plainZh    = map[string]string{"duplicate field": "字段重复", "invalid UTF-8": "不是有效的 UTF-8",
		"unexpected end of input: a value is not closed": "输入意外结束：有值没有闭合", "more than one value": "不止一个值",
		assess.ErrNullString.Error(): "应为字符串，实为 null：要表示缺失，请省略这个字段",
		decode.ErrNullBool.Error():   "应为布尔值，实为 null：要表示缺失，请省略这个字段",
		decode.NullInList:            "字符串列表中有 null：删掉它，或写成字符串",
		decode.LoneSurrogate:         "单独的代理项转义（\\uD800–\\uDFFF 缺少配对）：不是 Unicode 文本"}
	zhListComma = strings.NewReplacer(", ", "、")
)

func kindZh(k string) string {
	if z, ok := kindsZh[k]; ok {
		return z
	}
	return k
}

// messageZh translates one message the decoder writes.
func messageZh(msg string) string {
	if z, ok := plainZh[msg]; ok {
		return z
	}
	if m := reWant.FindStringSubmatch(msg); m != nil {
		return "应为" + kindZh(m[1]) + "，实为" + kindZh(m[2])
	}
	if m := reRequired.FindStringSubmatch(msg); m != nil {
		if strings.Contains(msg, "array") {
			return "必填：一个 ID 数组（没有就写 []）"
		}
		return "必填"
	}
	if m := reUnknown.FindStringSubmatch(msg); m != nil {
		s := "未知字段"
		if m[1] != "" {
			s += "（你是不是想写 " + m[1] + "？）"
		}
		if m[2] != "" {
			s += "；已知字段：" + zhListComma.Replace(m[2])
		}
		return s
	}
	return msg
}
