package look

import (
	"strconv"

	"toolgate/assess"
)

// AuditFields lists an audit input: every requested ID, every result ID,
// and whether the batch is closed.
func AuditFields(in assess.AuditInput) []Field {
	var out []Field
	list := func(section string, ids []string) {
		if len(ids) == 0 {
			out = append(out, Field{Section: section, Path: section, Label: section, Value: "[]"})
		}
		for i, id := range ids {
			label := "[" + strconv.Itoa(i) + "]"
			out = append(out, Field{Section: section, Path: section + label, Label: label, Value: strconv.Quote(id)})
		}
	}
	list("requested", in.Requested)
	list("results", in.Results)
	out = append(out, Field{Section: "closed", Path: "closed", Label: "closed", Value: strconv.FormatBool(in.Closed)})
	return out
}

// OutcomeFields lists a tool outcome: the JSON-RPC error or the result,
// the absent one shown as absent.
func OutcomeFields(in assess.OutcomeInput) []Field {
	var out []Field
	add := func(section, label, value string, absent bool) {
		out = append(out, Field{Section: section, Path: section + "." + label, Label: label, Value: value, Absent: absent})
	}
	if e := in.Error; e != nil {
		add("error", "code", strconv.Itoa(e.Code), false)
		add("error", "message", strconv.Quote(e.Message), e.Message == "")
	} else {
		out = append(out, Field{Section: "error", Path: "error", Absent: true})
	}
	if r := in.Result; r != nil {
		add("result", "isError", strconv.FormatBool(r.IsError), false)
		add("result", "errorKind", strconv.Quote(r.ErrorKind), r.ErrorKind == "")
		if r.Found != nil {
			add("result", "found", strconv.FormatBool(*r.Found), false)
		} else {
			add("result", "found", "", true)
		}
		if r.Content != nil {
			add("result", "content", jsonText(r.Content), false)
		} else {
			add("result", "content", "", true)
		}
	} else {
		out = append(out, Field{Section: "result", Path: "result", Absent: true})
	}
	return out
}
