// assess.mjs — your gate's decision: the book's assessToolInvocation
// (chapter 11), with the book's own signature, so that this function can
// go into the book's examples and back. It is the only file you need to
// edit; `toolgate learn` runs it on every save (README.md says how).
//
// It is given one admission input, already parsed from JSON:
//   contract          { version?, tools: [{ name, version?, effectClass?,
//                       requiredArguments, approvalScope? }] }
//   request           { correlationId, tool: { name, version? }, arguments? }
//   environment       { status? }
//   approval          { status, scope? }, or absent, or null
//   invocationRecord  { correlationId?, status?, effectStatus?,
//                       verificationStatus? }, or absent, or null
// (a member marked ? may be absent; absent is not the same as "").
//
// It returns the verdict, in this member order:
//   { status, code, correlationId, missingArguments?, effectStatus? }
//
// Eight rules are asked in order, and the first that fires decides. Start
// with rule 1; toolgate shows the first vector your function gets wrong,
// and h gives a hint (never code).

export function assessToolInvocation({ contract, request, environment, approval, invocationRecord }) {
  // Your decision goes here.
}
