package cli_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// toolgate audit --lang zh says every error in Chinese: the audit's own
// (a request ID twice), the decoder's (null where a string or a boolean
// belongs, a lone surrogate), the stream's refusals and the closing
// count; each error line names its layer; without --lang zh nothing else
// changes.
func TestAuditErrorsInChinese(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"requested":["A","B"],"results":["B","A"]}`,
		`{"requested":["A","A"],"results":["A"]}`,
		`{"requested":["A"],"result":["A"]}`,
		`{"requested":"A","results":[]}`,
		`{"requested":["A"],"results":[null]}`,
		`{"requested":["A"],"results":["A"],"results":[]}`,
		`{"results":[]}`,
		`{"requested":["A"],"results":["B"],"closed":false,"padding":"` + strings.Repeat("x", 200) + `"}`,
		`{"requested":["A"],"results":[],"closed":null}`,
		`{"requested":["\ud800"],"results":[]}`,
		`{"requested":["A"],"results":[""]}`,
	}, "\n") + "\n"
	out, errOut, code := run(t, in, nil, "audit", "--lang", "zh", "--max-value", "150")
	assert.Equal(t, 1, code)
	assert.Equal(t, strings.Join([]string{
		`{"diagnostics":[],"pending":[]}`,
		`{"error":"第 2 行：requested[1]：请求 ID \"A\" 重复：一个结果该对应哪一个请求？","layer":"decision"}`,
		`{"error":"第 3 行：result：未知字段（你是不是想写 results？）；已知字段：requested、results、closed","layer":"input"}`,
		`{"error":"第 4 行：requested：应为数组，实为字符串","layer":"input"}`,
		`{"error":"第 5 行：results[0]：字符串列表中有 null：删掉它，或写成字符串","layer":"input"}`,
		`{"error":"第 6 行：results：字段重复","layer":"input"}`,
		`{"error":"第 7 行：requested：必填：一个 ID 数组（没有就写 []）","layer":"input"}`,
		`{"error":"第 8 行第 1 列：值超过 150 字节（用 --max-value 提高上限）","layer":"input"}`,
		`{"error":"第 9 行：closed：应为布尔值，实为 null：要表示缺失，请省略这个字段","layer":"input"}`,
		`{"error":"第 10 行：requested[0]：单独的代理项转义（\\uD800–\\uDFFF 缺少配对）：不是 Unicode 文本","layer":"input"}`,
		// "" is an ID like any other (the seed's Java accepts it).
		`{"diagnostics":["missing:A","unknown:"],"pending":[]}`,
	}, "\n")+"\n", out)
	assert.Equal(t, "toolgate: -：11 个输入中有 9 个无效（见它们的错误行）\n", errOut)

	_, errOut, code = run(t, `{"requested":[`, nil, "audit", "--lang", "zh")
	assert.Equal(t, 2, code)
	assert.Equal(t, "toolgate: -:1:15：不是 JSON：输入意外结束：有值没有闭合\n", errOut)

	out, errOut, _ = run(t, in, nil, "audit", "--max-value", "150")
	assert.Contains(t, out, `{"error":"line 2: requested[1]: duplicate request ID \"A\": which request would a result answer?","layer":"decision"}`)
	assert.Contains(t, out, `{"error":"line 9: closed: null where a boolean is expected: leave the member out to say absent","layer":"input"}`)
	assert.Contains(t, errOut, "9 of 11 inputs were invalid")
}

// With --lang zh the stream's own words are Chinese wherever it says
// them: a value nested too deep, text that stops being JSON after valid
// batches (the count of inputs is never reached), and a file answered in
// blocks; toolgate assess, which has no Chinese errors, says them in
// English.
func TestAuditStreamWordsInChinese(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	out, errOut, code := run(t, `{"requested":[],"results":[]}`+"\n"+deep+"\n", nil, "audit", "--lang", "zh")
	assert.Equal(t, 1, code)
	assert.Equal(t, `{"diagnostics":[],"pending":[]}`+"\n"+`{"error":"第 2 行第 1001 列：嵌套超过 1000 层","layer":"input"}`+"\n", out)
	assert.Equal(t, "toolgate: -：2 个输入中有 1 个无效（见它们的错误行）\n", errOut)

	_, errOut, code = run(t, `{"requested":[],"results":[]}`+"\n"+`{"requested":[] "results":[]}`+"\n", nil, "audit", "--lang", "zh")
	assert.Equal(t, 2, code)
	assert.Equal(t, "toolgate: -:2:17：不是 JSON：invalid character '\"' after object value (expecting ',' or '}')\n", errOut)

	_, errOut, code = run(t, deep+"\n", nil, "assess", "--lang", "zh")
	assert.Equal(t, 1, code)
	assert.Equal(t, "toolgate: -: 1 of 1 inputs were invalid (see their error lines)\n", errOut)
}
