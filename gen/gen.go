// Package gen writes random inputs for toolgate's contract (docs/decision.md) as
// JSON text: admission inputs that reach every rule, code and refusal
// class of §1 and §2, and correlation-audit batches (§4). Everything
// is drawn from the *rand.Rand it is given, so one seed always gives the
// same bytes. It knows the contract's shape, not its answers: what an
// input should get is for an implementation to say (difftest compares
// toolgate with an independent one in scripts/node).
package gen
