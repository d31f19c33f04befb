package main

// assessToolInvocation is your gate's decision: the book's
// assessToolInvocation (chapter 11) in Go. It is the only function you
// need to write; `toolgate learn` builds and runs it on every save
// (README.md says how).
//
// It is given one admission input (the types are in gate.go). A member
// that may be absent is a pointer: nil when absent, and absent is not the
// same as "". It returns the verdict; MissingArguments and EffectStatus
// are written only when set.
//
// Eight rules are asked in order, and the first that fires decides. Start
// with rule 1; toolgate shows the first vector your function gets wrong,
// and h gives a hint (never code).
func assessToolInvocation(in Input) Verdict {
	// Your decision goes here.
	return Verdict{}
}
