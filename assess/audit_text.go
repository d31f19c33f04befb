package assess

import (
	"strconv"
	"strings"
)

// Title names the step, e.g. `Result 2: "A"`.
func (s AuditStep) Title(l Lang) string {
	switch s.Kind {
	case AuditRequests:
		return pick(l, "Requests are unique", "请求 ID 唯一")
	case AuditScan:
		if s.Err != nil {
			return pick(l, "Result ", "结果 ") + strconv.Itoa(s.Index+1)
		}
		return pick(l, "Result ", "结果 ") + strconv.Itoa(s.Index+1) + ": " + strconv.Quote(s.ID)
	case AuditClose:
		return pick(l, "Batch end", "批次结束")
	}
	return ""
}

// Question is what the step asks.
func (s AuditStep) Question(l Lang) string {
	switch s.Kind {
	case AuditRequests:
		return pick(l, "Is every requested ID non-empty and used once? Otherwise no result can be matched to one request.",
			"每个请求 ID 都非空且只出现一次吗？否则结果无法对应到唯一的请求。")
	case AuditScan:
		return pick(l, "Was this ID requested? Has a result with this ID been seen before?",
			"这个 ID 被请求过吗？之前见过带这个 ID 的结果吗？")
	case AuditClose:
		return pick(l, "Which requests never got a result — and is the batch over, so they are missing and not just pending?",
			"哪些请求没有收到结果？批次是否已结束——它们是缺失，还是仍在等待？")
	}
	return ""
}

// Explanation says what the step found, from the actual IDs.
func (s AuditStep) Explanation(l Lang) string {
	if s.Err != nil {
		if s.Err.Duplicate {
			return pick(l, s.Err.Path+" repeats "+strconv.Quote(s.Err.ID)+": a result for it could answer either request, so the audit stops with an input error",
				s.Err.Path+" 重复了 "+strconv.Quote(s.Err.ID)+"：它的结果可以对应任一请求，审计以输入错误结束")
		}
		return pick(l, s.Err.Path+" is empty: an ID that names nothing cannot be matched",
			s.Err.Path+" 为空：不指向任何东西的 ID 无法匹配")
	}
	switch s.Kind {
	case AuditRequests:
		return pick(l, "every requested ID is unique", "每个请求 ID 都是唯一的")
	case AuditScan:
		var parts []string
		if s.Known {
			parts = append(parts, pick(l, "requested", "已请求"))
		} else {
			parts = append(parts, pick(l, "never requested → unknown:", "从未请求 → unknown:")+s.ID)
		}
		if s.SeenBefore {
			parts = append(parts, pick(l, "seen before → duplicate:", "之前已见过 → duplicate:")+s.ID)
		} else {
			parts = append(parts, pick(l, "first time seen", "首次出现"))
		}
		return strings.Join(parts, pick(l, "; ", "；"))
	case AuditClose:
		ids := quoteAll(s.Unseen)
		switch {
		case len(s.Unseen) == 0:
			return pick(l, "every request got a result", "每个请求都收到了结果")
		case s.Closed:
			return pick(l, "the batch is closed, so "+ids+" never arrived → missing",
				"批次已结束，所以 "+ids+" 永远不会到达 → missing")
		default:
			return pick(l, "the batch is still open: "+ids+" may yet arrive → pending, not missing",
				"批次仍在进行："+ids+" 可能还会到达 → 等待中，而不是缺失")
		}
	}
	return ""
}

func quoteAll(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = strconv.Quote(id)
	}
	return strings.Join(q, ", ")
}

func pick(l Lang, en, zh string) string {
	if l == Chinese {
		return zh
	}
	return en
}

// AuditCaveat is what a clean audit does NOT prove.
func AuditCaveat(l Lang) string {
	return pick(l, "that a result's body is the right business result for its request: matching IDs say nothing about content",
		"结果正文就是该请求正确的业务结果：ID 匹配不说明内容")
}
