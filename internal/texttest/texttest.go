// Package texttest checks a package's catalogue of texts: the struct that
// holds every text of the package in English and Chinese, a field each.
// The compiler catches a mistyped field and a text given in one language
// only; it does not catch a field declared and never set, or set to "".
// Complete does.
package texttest

import (
	"reflect"
	"testing"
)

// Complete fails t for every text of catalogue that is empty in English
// or in Chinese. A text is a [2]string (English, Chinese) of any named
// type; a struct of texts inside the catalogue is walked, and anything
// else in a catalogue is reported too.
func Complete(t testing.TB, catalogue any) {
	t.Helper()
	v := reflect.ValueOf(catalogue)
	if v.Kind() != reflect.Struct || v.NumField() == 0 {
		t.Fatalf("a catalogue is a struct of texts, not %T", catalogue)
		return
	}
	walk(t, v, "")
}

func walk(t testing.TB, v reflect.Value, path string) {
	t.Helper()
	switch {
	case isText(v.Type()):
		for i, lang := range []string{"English", "Chinese"} {
			if v.Index(i).String() == "" {
				t.Errorf("%s has no %s text", path, lang)
			}
		}
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			name := v.Type().Field(i).Name
			if path != "" {
				name = path + "." + name
			}
			walk(t, v.Field(i), name)
		}
	default:
		t.Errorf("%s is of type %s, not a text", path, v.Type())
	}
}

func isText(ty reflect.Type) bool {
	return ty.Kind() == reflect.Array && ty.Len() == 2 && ty.Elem().Kind() == reflect.String
}
