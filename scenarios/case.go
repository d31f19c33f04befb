package scenarios

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"toolgate/assess"
	"toolgate/decode"
)

// Case is a scenario's body on its track: the input its core is asked
// about and the answer the scenario expects. It is one of AdmissionCase,
// AuditCase and OutcomeCase, and nothing else: a switch over a Case
// names all three (the gochecksumtype linter holds it to that), so a
// new track shows up at every place that must learn it.
//
//sumtype:decl
type Case interface {
	// Track is the case's track.
	Track() Track
	// Check compares the expected answer with what the track's core says.
	Check() error
	// Encode writes the input as the JSON its track's decoder reads.
	Encode() ([]byte, error)
	isCase()
}

// AdmissionCase is an admission scenario's body: the input of the
// decision and the verdict expected.
type AdmissionCase struct {
	Input  assess.Input
	Expect AdmissionExpect
}

// AuditCase is an audit scenario's body: a batch and its diagnostics.
type AuditCase struct {
	Input  assess.AuditInput
	Expect AuditExpect
}

// OutcomeCase is an outcome scenario's body: a result and its class.
type OutcomeCase struct {
	Input  assess.OutcomeInput
	Expect OutcomeExpect
}

// AdmissionExpect is the verdict an admission scenario expects.
// ApprovalStatus is the status in approval_<status>.
type AdmissionExpect struct {
	Status           assess.Status
	Code             assess.Code
	ApprovalStatus   string
	MissingArguments []string
	EffectStatus     string
}

// AuditExpect is what an audit scenario expects: the diagnostics and
// pending IDs, or Error, text the audit's input error must contain.
type AuditExpect struct {
	Diagnostics []string
	Pending     []string
	Error       string
}

// OutcomeExpect is the class an outcome scenario expects.
type OutcomeExpect struct {
	Class assess.OutcomeClass
}

// Track is TrackAdmission.
func (AdmissionCase) Track() Track { return TrackAdmission }

// Track is TrackAudit.
func (AuditCase) Track() Track { return TrackAudit }

// Track is TrackOutcome.
func (OutcomeCase) Track() Track { return TrackOutcome }

func (AdmissionCase) isCase() {}
func (AuditCase) isCase()     {}
func (OutcomeCase) isCase()   {}

// Encode writes the input as JSON.
func (c AdmissionCase) Encode() ([]byte, error) { return decode.Encode(c.Input) }

// Encode writes the input as JSON.
func (c AuditCase) Encode() ([]byte, error) { return decode.Encode(c.Input) }

// Encode writes the input as JSON.
func (c OutcomeCase) Encode() ([]byte, error) { return decode.Encode(c.Input) }

// Check compares the expected verdict with what assess says.
func (c AdmissionCase) Check() error {
	e := c.Expect
	in := c.Input
	v, trace := assess.Explain(&in)
	if v.Status == e.Status && v.CodeName() == e.Code.Name(e.ApprovalStatus) &&
		slices.Equal(v.MissingArguments, e.MissingArguments) && v.EffectStatus == e.EffectStatus {
		return nil
	}
	got := AdmissionExpect{Status: v.Status, Code: v.Code, ApprovalStatus: v.ApprovalStatus, MissingArguments: v.MissingArguments, EffectStatus: v.EffectStatus}
	fired := trace.Fired()
	return fmt.Errorf("expected %s, assess says %s (rule %d fired: %s)",
		e.String(), got.String(), fired.Rule, fired.Explanation(assess.English))
}

// Check compares the expected diagnostics with what the audit says.
func (c AuditCase) Check() error {
	e := c.Expect
	r, err := assess.Audit(c.Input)
	switch {
	case err != nil && e.Error != "" && strings.Contains(err.Error(), e.Error):
		return nil
	case err != nil:
		return fmt.Errorf("expected %s, the audit says input error %q", auditString(e.Diagnostics, e.Pending, e.Error), err.Error())
	case e.Error == "" && slices.Equal(r.Diagnostics, e.Diagnostics) && slices.Equal(r.Pending, orEmpty(e.Pending)):
		return nil
	}
	return fmt.Errorf("expected %s, the audit says %s", auditString(e.Diagnostics, e.Pending, e.Error), auditString(r.Diagnostics, r.Pending, ""))
}

// Check compares the expected class with what the classification says.
func (c OutcomeCase) Check() error {
	class, _, err := assess.Classify(c.Input)
	if err != nil {
		return err
	}
	if class != c.Expect.Class {
		return fmt.Errorf("expected class %s, the classification says %s", c.Expect.Class, class)
	}
	return nil
}

// String is the verdict as status/code [missing arguments].
func (e AdmissionExpect) String() string {
	s := e.Status.String() + "/" + e.Code.Name(e.ApprovalStatus)
	if len(e.MissingArguments) > 0 {
		s += " [" + strings.Join(e.MissingArguments, ", ") + "]"
	}
	return s
}

func auditString(diagnostics, pending []string, errText string) string {
	if errText != "" {
		return "input error " + strconv.Quote(errText)
	}
	s := "diagnostics [" + strings.Join(diagnostics, " ") + "]"
	if len(pending) > 0 {
		s += " pending [" + strings.Join(pending, " ") + "]"
	}
	return s
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
