package scenarios

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

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

// SaveCopy writes s as a new scenario file in dir, named after its id with
// "-whatif-N" appended, never over an existing file; it returns the path.
// It is how a learner's what-if experiment is kept on their own machine.
func SaveCopy(dir string, s Scenario) (string, error) {
	base := s.ID
	s.Title = Text{En: appendText(s.Title.En, " (what-if)"), Zh: appendText(s.Title.Zh, "（假设）")}
	for n := 1; n < 1000; n++ {
		s.ID = fmt.Sprintf("%s-whatif-%d", base, n)
		name := filepath.Join(dir, s.ID+".yaml")
		if _, err := os.Lstat(name); err == nil {
			continue
		}
		data, err := Marshal(s)
		if err != nil {
			return "", err
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			if errors.Is(err, os.ErrExist) {
				continue
			}
			return "", err
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(name)
			return "", werr
		}
		return name, nil
	}
	return "", errors.New("too many what-if files already")
}

func appendText(s, suffix string) string {
	if s == "" {
		return ""
	}
	return s + suffix
}
