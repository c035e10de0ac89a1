package render

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/repo-manager/repo/internal/setting"
)

// authorsTable is the Settings section's table in docs/extension-authors.md:
// each setting's field, type and meaning.
func authorsTable() []byte {
	var b bytes.Buffer
	b.WriteString("| field | type | meaning |\n|---|---|---|\n")
	for _, r := range setting.Table {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.Name, authorType(r), r.Meaning)
	}
	return b.Bytes()
}

// authorType is the value a setting takes, as the MCP file spells it.
func authorType(r setting.Row) string {
	switch r.Kind {
	case setting.Bool:
		return fmt.Sprintf("`true` or `false`; default `%t`", r.Default)
	case setting.Tools:
		if r.Empty != "" {
			return "non-empty array of tool names"
		}
		return "array of tool names"
	case setting.Seconds:
		return fmt.Sprintf("whole seconds, 1 to %d", setting.MaxSeconds)
	}
	return ""
}

// profilesTable is the table of [entry.settings] keys in
// docs/tool-profiles.md: each setting's key, the value it takes, and the
// keys a profile may give for it beside field.
func profilesTable() []byte {
	var b bytes.Buffer
	b.WriteString("| key | setting | value | keys beside `field` |\n|---|---|---|---|\n")
	words := map[setting.Kind]string{setting.Bool: "boolean", setting.Tools: "tool names", setting.Seconds: "seconds"}
	for _, r := range setting.Table {
		var keys []string
		for _, k := range r.ProfileKeys() {
			if k == "unit" {
				k += "` (required)"
			} else {
				k += "`"
			}
			keys = append(keys, "`"+k)
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", r.Profile, r.Name, words[r.Kind], strings.Join(keys, ", "))
	}
	return b.Bytes()
}
