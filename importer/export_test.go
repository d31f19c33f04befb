package importer

import (
	"bytes"

	"toolgate/assess"
)

// Batches is a whole import held in memory: the batches in order, each
// with where it came from. Transcript makes it; ReadTranscript is the
// streaming form.
type Batches struct {
	TranscriptReport
	Batches []assess.AuditInput
	Where   []string
}

// Transcript reads a whole transcript held in data.
func Transcript(name string, data []byte, o TranscriptOptions) (Batches, error) {
	var b Batches
	rep, err := ReadTranscript(name, bytes.NewReader(data), o, func(x Batch) error {
		b.Batches = append(b.Batches, x.AuditInput)
		b.Where = append(b.Where, x.Where)
		return nil
	})
	b.TranscriptReport = rep
	return b, err
}

// JSONLines writes the batches as `toolgate audit` reads them, one a line.
func (b Batches) JSONLines() []byte {
	var buf bytes.Buffer
	for _, in := range b.Batches {
		buf.Write(BatchLine(in))
	}
	return buf.Bytes()
}
