package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/goccy/go-yaml"

	"toolgate/assess"
	"toolgate/safefile"
)

// Marshal writes an admission scenario as a YAML file that Parse reads
// back: the way a learner's what-if experiment is kept. The expected
// verdict is what assess says of the input now. comment, when not "",
// is the file's first line: who wrote it.
func Marshal(s Scenario, comment string) ([]byte, error) {
	c, ok := s.Case.(AdmissionCase)
	if !ok {
		return nil, fmt.Errorf("only admission scenarios can be written, not %s", s.Track())
	}
	raw, err := c.Encode()
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var input any
	if err := dec.Decode(&input); err != nil {
		return nil, err
	}
	input = exactYAML(input)
	v := assess.Assess(&c.Input)
	expect := yaml.MapSlice{{Key: "status", Value: v.Status.String()}, {Key: "code", Value: v.CodeName()}}
	if len(v.MissingArguments) > 0 {
		expect = append(expect, yaml.MapItem{Key: "missingArguments", Value: v.MissingArguments})
	}
	if v.EffectStatus != "" {
		expect = append(expect, yaml.MapItem{Key: "effectStatus", Value: v.EffectStatus})
	}
	doc := yaml.MapSlice{{Key: "id", Value: s.ID}, {Key: "track", Value: s.Track().String()}}
	for _, t := range []struct {
		key  string
		text Text
	}{{"title", s.Title}, {"scene", s.Scene}, {"story", s.Story}, {"injected", s.Injected}, {"doesNotProve", s.DoesNotProve}, {"notes", s.Notes}} {
		if m := textMap(t.text); m != nil {
			doc = append(doc, yaml.MapItem{Key: t.key, Value: m})
		}
	}
	doc = append(doc, yaml.MapItem{Key: "input", Value: input}, yaml.MapItem{Key: "expect", Value: expect})
	out, err := yaml.MarshalWithOptions(doc, yaml.Indent(2), yaml.IndentSequence(true), yaml.UseLiteralStyleIfMultiline(true))
	if err != nil {
		return nil, err
	}
	if comment == "" {
		return out, nil
	}
	return append([]byte("# "+comment+"\n"), out...), nil
}

// yamlText is YAML written as it is: go-yaml parses it and keeps it.
type yamlText string

// MarshalYAML implements yaml.BytesMarshaler.
func (t yamlText) MarshalYAML() ([]byte, error) { return []byte(t), nil }

// exactYAML makes a JSON value (numbers as json.Number) into one that
// go-yaml writes so that Parse reads back the same JSON: every number
// as written (1e400 stays a number), and a string that looks like a JSON
// number in quotes (go-yaml would write "1e10" plain, which reads back
// as a number).
func exactYAML(v any) any {
	switch v := v.(type) {
	case json.Number:
		return yamlText(v)
	case string:
		if jsonNumber.MatchString(v) {
			return yamlText(strconv.Quote(v))
		}
	case map[string]any:
		for k, e := range v {
			v[k] = exactYAML(e)
		}
	case []any:
		for i, e := range v {
			v[i] = exactYAML(e)
		}
	}
	return v
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
// The file is written whole or not at all (safefile.WriteNew): a crash
// leaves no half-written scenario and no temporary file.
func SaveCopy(dir string, s Scenario) (string, error) {
	// The id's base name only: whatever it holds, the copy is written
	// in dir (ids are checked when loaded, see BadIDAt; this is the
	// second lock).
	base := filepath.Base(filepath.Clean("/" + s.ID))
	if at := BadIDAt(base); at > 0 || base == "" {
		base = "scenario"
	}
	s.Title = Text{En: appendText(s.Title.En, " (what-if)"), Zh: appendText(s.Title.Zh, "（假设）")}
	for n := 1; n < 1000; n++ {
		s.ID = fmt.Sprintf("%s-whatif-%d", base, n)
		name := filepath.Join(dir, s.ID+".yaml")
		if _, err := os.Lstat(name); err == nil {
			continue
		}
		data, err := Marshal(s, "Written by toolgate's what-if mode. Check it with: toolgate validate FILE")
		if err != nil {
			return "", err
		}
		if err := safefile.WriteNew(name, data, 0o644); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue // taken since the look: the next number
			}
			return "", err
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
