package texttest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

type text [2]string

// recorder is a testing.TB that keeps what it is told.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func TestComplete(t *testing.T) {
	r := &recorder{TB: t}
	Complete(r, struct {
		Both, NoChinese, Unset text
		Inner                  struct{ NoEnglish text }
		Count                  int
	}{
		Both:      text{"check", "检查"},
		NoChinese: text{"check", ""},
		Inner:     struct{ NoEnglish text }{text{"", "检查"}},
	})
	assert.Equal(t, []string{
		"NoChinese has no Chinese text", "Unset has no English text", "Unset has no Chinese text",
		"Inner.NoEnglish has no English text", "Count is of type int, not a text",
	}, r.errors)

	r = &recorder{TB: t}
	Complete(r, "check")
	assert.Equal(t, []string{"a catalogue is a struct of texts, not string"}, r.errors)
}
