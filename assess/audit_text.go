package assess

import (
	"strconv"
	"strings"
)

// Title names the step, e.g. `Result 2: "A"`.
func (s AuditStep) Title(l Lang) string {
	switch s.Kind {
	case AuditRequests:
		return pick(l, "Duplicate request ID", "请求 ID 重复")
	case AuditScan:
		if s.Err != nil {
			return pick(l, "Result ", "结果 ") + strconv.Itoa(s.Index+1)
		}
		return pick(l, "Result ", "结果 ") + strconv.Itoa(s.Index+1) + l.Colon() + strconv.Quote(s.ID)
	case AuditClose:
		return pick(l, "Batch end", "批次结束")
	}
	return ""
}

// Question is what the step asks, phrased as the admission rules are:
// a yes fires.
func (s AuditStep) Question(l Lang) string {
	switch s.Kind {
	case AuditRequests:
		return pick(l, "Is some requested ID used more than once? Then no result could be matched to one request.",
			"是否有请求 ID 重复？若有，结果就无法对应到唯一的请求。")
	case AuditScan:
		return pick(l, "Was this ID never requested, or seen before? Either one fires: unknown, duplicate.",
			"这个 ID 是否从未被请求，或之前已出现过？任一为是即触发：unknown、duplicate。")
	case AuditClose:
		return pick(l, "Is the batch over — ended, or past its deadline — with requests that got no result? Those are missing; while the batch is open they are only pending.",
			"批次是否已结束（已收尾或已过截止时间），且仍有请求没有收到结果？这些才是缺失；批次未结束时它们只是等待中。")
	}
	return ""
}

// Explanation says what the step found, from the actual IDs.
func (s AuditStep) Explanation(l Lang) string {
	if s.Err != nil {
		return pick(l, s.Err.Path+" repeats "+strconv.Quote(s.Err.ID)+": a result for it could answer either request, so the audit stops with an input error",
			s.Err.Path+" 重复了 "+strconv.Quote(s.Err.ID)+"：它的结果可以对应任一请求，审计以输入错误结束")
	}
	sep := pick(l, "; ", "；")
	switch s.Kind {
	case AuditRequests:
		if s.Requested == 0 {
			return pick(l, "no ID was requested: nothing to repeat", "没有请求任何 ID：无从重复")
		}
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
		return strings.Join(parts, sep)
	case AuditClose:
		ids := quoteAll(s.Unseen, l)
		switch {
		case s.Requested == 0:
			// Vacuously "every request got a result": say what is true.
			// Results may still have come (each unknown, said at its step).
			return pick(l, "nothing was requested, so nothing can be missing",
				"没有任何请求，所以不会有缺失")
		case len(s.Unseen) == 0:
			return pick(l, "every request got a result", "每个请求都收到了结果")
		case s.Closed:
			// Seed 002: missing is judged only once the batch has ended
			// or its deadline has passed; what "closed" stands for.
			return pick(l, "the batch is over (ended, or past its deadline), so "+ids+" never arrived → missing",
				"批次已结束（已收尾或已过截止时间），"+ids+" 没有到达 → missing")
		default:
			return pick(l, "the batch is still open and its deadline has not passed: "+ids+" may yet arrive → pending, not missing",
				"批次仍在进行，也未到截止时间："+ids+" 可能还会到达 → 等待中，而不是缺失")
		}
	}
	return ""
}

func quoteAll(ids []string, l Lang) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = strconv.Quote(id)
	}
	return strings.Join(q, l.ListSep())
}

// Text is the input error in a language; Error is the English one.
func (e *AuditError) Text(l Lang) string {
	if l != Chinese {
		return e.Error()
	}
	return e.Path + "：请求 ID " + strconv.Quote(e.ID) + " 重复：一个结果该对应哪一个请求？"
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
