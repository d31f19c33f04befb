// Package limits holds the bounds of toolgate's input check, shared by
// the strict decoder (decode) and its fast lane (internal/fastlane), so
// that both refuse the same inputs.
package limits

const (
	// MaxDepth is the deepest nesting of arrays and objects in a value,
	// well under the JSON parser's own 10,000 (past which it stops
	// reading the stream).
	MaxDepth = 1000
	// MaxTools is the most tools a contract may hold: far beyond any
	// real contract (GitHub's MCP server has 117 tools), and small
	// enough that no input costs a student's screen a visible moment.
	MaxTools = 4096
	// MaxRequiredArguments is the most names one requiredArguments list
	// may hold.
	MaxRequiredArguments = 4096
)
