// Command repo writes extension MCP servers into every AI tool's config.
package main

import (
	"os"

	"github.com/repo-manager/repo/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:]))
}
