package difftest

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"toolgate/assess"
	"toolgate/decode"
	"toolgate/gen"
)

// toolgateAssess is toolgate's answer to one admission input, as JSON:
// the verdict, or {"error": ...} when its input check refuses the input.
// A panic is an answer too, so that one bad input does not hide the rest.
func toolgateAssess(data []byte) (answer string) {
	defer func() {
		if p := recover(); p != nil {
			answer = fmt.Sprintf(`{"panic":%q}`, fmt.Sprint(p))
		}
	}()
	in, err := decode.Input(data)
	if err != nil {
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return string(b)
	}
	b, err := json.Marshal(assess.Assess(&in))
	if err != nil {
		return fmt.Sprintf(`{"panic":%q}`, "marshal: "+err.Error())
	}
	return string(b)
}

// TestAdmissionAgainstNode decides generated admission inputs with toolgate
// (decode.Input, then assess.Assess) and with the Node implementation
// written from docs/decision.md alone: both must refuse an input, or both give the
// same verdict as JSON values.
func TestAdmissionAgainstNode(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	r := rand.New(rand.NewPCG(2026, 1))
	inputs := make([][]byte, n)
	for i := range inputs {
		inputs[i] = gen.Admission(r)
	}
	node := nodeAnswers(t, "assess", inputs)

	d := disagreements{inputs: n}
	for i, input := range inputs {
		mine := toolgateAssess(input)
		switch {
		case refused(node[i]) && refused(mine):
		case refused(node[i]) || refused(mine) || !sameJSON([]byte(node[i]), []byte(mine)):
			d.add(fmt.Sprintf("node %s, toolgate %s", codeOf(node[i]), codeOf(mine)), input, "node:     "+node[i], "toolgate: "+mine)
		}
	}
	d.report(t, "toolgate against node (assess)")
}
