package yamledit_test

import (
	"fmt"

	"github.com/repo-manager/repo/internal/yamledit"
)

func ExampleDoc_Insert() {
	doc, err := yamledit.Parse([]byte(`name: Local Config
version: 1.0.0
mcpServers:
- name: mine   # a user's server
  command: uvx
`))
	if err != nil {
		panic(err)
	}
	doc, err = doc.Insert([]string{"mcpServers"}, yamledit.List, "name", []yamledit.Entry{{Name: "docs",
		Value: []byte(`{"command":"npx","args":["-y","@acme/docs-mcp"],"env":{"TOKEN":"${{ secrets.TOKEN }}"}}`)}})
	if err != nil {
		panic(err)
	}
	fmt.Print(string(doc.Bytes()))
	// Output:
	// name: Local Config
	// version: 1.0.0
	// mcpServers:
	// - name: mine   # a user's server
	//   command: uvx
	// # >>> repo managed: docs
	// - name: docs
	//   command: npx
	//   args:
	//   - "-y"
	//   - "@acme/docs-mcp"
	//   env:
	//     TOKEN: ${{ secrets.TOKEN }}
	// # <<< repo managed: docs
}

func ExampleDoc_Delete() {
	doc, err := yamledit.Parse([]byte("GOOSE_MODEL: gpt-4o\nextensions:\n  docs:\n    cmd: npx\n    enabled: true\n"))
	if err != nil {
		panic(err)
	}
	// Removing the last entry of a container found in a file leaves an
	// empty flow value, which Goose and Continue both accept.
	doc, err = doc.Delete([]string{"extensions"}, yamledit.Map, "", "docs")
	if err != nil {
		panic(err)
	}
	fmt.Print(string(doc.Bytes()))
	// Output:
	// GOOSE_MODEL: gpt-4o
	// extensions: {}
}
