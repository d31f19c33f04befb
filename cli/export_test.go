package cli

// VersionOf is versionOf, for the tests of package cli_test.
var VersionOf = versionOf
