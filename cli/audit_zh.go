package cli

import (
	"bytes"
	"errors"
	"io"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json"

	"toolgate/assess"
	"toolgate/decode"
)

// `toolgate audit --lang zh` says its errors in Chinese, as every text a
// learner sees in Chinese mode is (field names, IDs and codes aside). The
// stream machinery (answerStream) is shared with assess's fast path and
// writes each error line as "line N: <what>"; rather than thread a language
// through it, audit's own errors are made in the language (auditAnswerIn)
// and the lines the stream writes pass through zhErrorLines, which says
// the positions and the stream's own refusals in Chinese. A message it does
// not know (the JSON parser's detail of text that is not JSON) is left as
// it is, after a Chinese position.

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
	reRequired = regexp.MustCompile(`^required(?: \(an array, may be empty\))?$`)
	reTooLarge = regexp.MustCompile(`^value is larger than (\d+) bytes \(--max-value raises the limit\)$`)
	reTooDeep  = regexp.MustCompile(`^nested more than (\d+) levels deep$`)
	rePosition = regexp.MustCompile(`^line (\d+)(?:, column (\d+))?: (.*)$`)
	reInvalid  = regexp.MustCompile(`^(.+): (\d+) of (\d+) inputs were invalid \(see their error lines\)$`)
	reNotJSON  = regexp.MustCompile(`^(.+?):(\d+):(\d+): not JSON: (.*)$`)
	kindsZh    = map[string]string{"string": "字符串", "number": "数字", "boolean": "布尔值", "array": "数组", "object": "对象", "null": "null"}
	plainZh    = map[string]string{"duplicate field": "字段重复", "invalid UTF-8": "不是有效的 UTF-8",
		"unexpected end of input: a value is not closed": "输入意外结束：有值没有闭合", "more than one value": "不止一个值"}
	zhListComma = strings.NewReplacer(", ", "、")
)

func kindZh(k string) string {
	if z, ok := kindsZh[k]; ok {
		return z
	}
	return k
}

// messageZh translates one message the decoder or the stream writes.
func messageZh(msg string) string {
	if z, ok := plainZh[msg]; ok {
		return z
	}
	if m := reWant.FindStringSubmatch(msg); m != nil {
		return "应为" + kindZh(m[1]) + "，实为" + kindZh(m[2])
	}
	if m := reRequired.FindStringSubmatch(msg); m != nil {
		if strings.Contains(msg, "array") {
			return "必填（一个数组，可以为空）"
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
	if m := reTooLarge.FindStringSubmatch(msg); m != nil {
		return "值超过 " + m[1] + " 字节（用 --max-value 提高上限）"
	}
	if m := reTooDeep.FindStringSubmatch(msg); m != nil {
		return "嵌套超过 " + m[1] + " 层"
	}
	return msg
}

// zhErrorLines passes a stream's output through, saying the position of
// each {"error": ...} line ("line 3: …", "line 2, column 1: …") and the
// stream's own refusals in Chinese. The rest of each error is already in
// Chinese (auditAnswerIn); other lines are written as they are.
type zhErrorLines struct {
	w       io.Writer
	partial []byte
}

func (z *zhErrorLines) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			z.partial = append(z.partial, p...)
			return n, nil
		}
		line := append(z.partial, p[:i+1]...)
		z.partial = z.partial[:0:0]
		p = p[i+1:]
		if _, err := z.w.Write(errorLineZh(line)); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// Flush writes what is left of an unfinished line.
func (z *zhErrorLines) Flush() error {
	if len(z.partial) == 0 {
		return nil
	}
	_, err := z.w.Write(z.partial)
	z.partial = nil
	return err
}

// errorLineZh rewrites one output line when it is an error line.
func errorLineZh(line []byte) []byte {
	if !bytes.HasPrefix(line, []byte(`{"error":`)) {
		return line
	}
	var e errorLine
	if err := json.Unmarshal(bytes.TrimSpace(line), &e); err != nil {
		return line
	}
	if m := rePosition.FindStringSubmatch(e.Error); m != nil {
		where := "第 " + m[1] + " 行"
		if m[2] != "" {
			where += "第 " + m[2] + " 列"
		}
		e.Error = where + "：" + messageZh(m[3])
	}
	out, err := json.Marshal(e)
	if err != nil {
		return line
	}
	return append(out, '\n')
}

// streamErrorZh says the stream's closing error in Chinese: how many
// inputs were invalid, or where the text stopped being JSON.
func streamErrorZh(err error) error {
	var ee *exitError
	if !errors.As(err, &ee) || ee.err == nil {
		return err
	}
	msg := ee.err.Error()
	if m := reInvalid.FindStringSubmatch(msg); m != nil {
		return &exitError{ee.code, errors.New(m[1] + "：" + m[3] + " 个输入中有 " + m[2] + " 个无效（见它们的错误行）")}
	}
	if m := reNotJSON.FindStringSubmatch(msg); m != nil {
		return &exitError{ee.code, errors.New(m[1] + ":" + m[2] + ":" + m[3] + "：不是 JSON：" + messageZh(m[4]))}
	}
	return err
}
