package cli

import "github.com/spf13/cobra"

func newImport(c *common) *cobra.Command {
	return &cobra.Command{Use: "import", Short: "Import real artefacts"}
}
