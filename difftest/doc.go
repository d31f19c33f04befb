// Package difftest compares toolgate with implementations it shares no
// code with, on inputs from package gen: the Node implementation written
// from docs/decision.md alone (scripts/node/toolgate.js) for admission and audit,
// the seed's own Java audit (scripts/java/AuditHarness.java), and, when
// TOOLGATE_BOOK names it, the book's JavaScript function against the Node
// implementation. The package has only tests; each skips, saying why,
// when node, javac or java is not on PATH.
package difftest
