package scenarios

import (
	"encoding/json"
	"fmt"

	"github.com/goccy/go-yaml"

	"toolgate/assess"
	"toolgate/decode"
)

// Marshal writes an admission scenario as a YAML file that Parse reads
// back: the way a learner's what-if experiment is kept. The expected
// verdict is what assess says of the input now.
func Marshal(s Scenario) ([]byte, error) {
	if s.Track != TrackAdmission {
		return nil, fmt.Errorf("only admission scenarios can be written, not %s", s.Track)
	}
	raw, err := decode.Encode(s.Input)
	if err != nil {
		return nil, err
	}
	var input any
	if err := json.Unmarshal(raw, &input); err != nil {
		return nil, err
	}
	v := assess.Assess(&s.Input)
	expect := yaml.MapSlice{{Key: "status", Value: v.Status.String()}, {Key: "code", Value: v.Code.String()}}
	if len(v.MissingArguments) > 0 {
		expect = append(expect, yaml.MapItem{Key: "missingArguments", Value: v.MissingArguments})
	}
	if v.EffectStatus != "" {
		expect = append(expect, yaml.MapItem{Key: "effectStatus", Value: v.EffectStatus})
	}
	doc := yaml.MapSlice{{Key: "id", Value: s.ID}, {Key: "track", Value: s.Track}}
	for _, t := range []struct {
		key  string
		text Text
	}{{"title", s.Title}, {"story", s.Story}, {"injected", s.Injected}, {"doesNotProve", s.DoesNotProve}, {"notes", s.Notes}} {
		if m := textMap(t.text); m != nil {
			doc = append(doc, yaml.MapItem{Key: t.key, Value: m})
		}
	}
	doc = append(doc, yaml.MapItem{Key: "input", Value: input}, yaml.MapItem{Key: "expect", Value: expect})
	out, err := yaml.MarshalWithOptions(doc, yaml.Indent(2), yaml.IndentSequence(true), yaml.UseLiteralStyleIfMultiline(true))
	if err != nil {
		return nil, err
	}
	return append([]byte("# Written by toolgate's what-if mode. Check it with: toolgate validate FILE\n"), out...), nil
}

func textMap(t Text) yaml.MapSlice {
	var m yaml.MapSlice
	if t.En != "" {
		m = append(m, yaml.MapItem{Key: "en", Value: t.En})
	}
	if t.Zh != "" {
		m = append(m, yaml.MapItem{Key: "zh", Value: t.Zh})
	}
	return m
}
