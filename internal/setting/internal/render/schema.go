package render

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/repo-manager/repo/internal/setting"
)

// mcpListSchema renders the settings object's properties in
// docs/schema/mcp-list.v1.json: a server's settings as repo mcp list
// --output json prints them, as the MCP file gives them.
func mcpListSchema(old []byte) ([]byte, error) {
	props := gjson.GetBytes(old, "items.properties.settings.properties")
	if !props.IsObject() || props.Index <= 0 {
		return nil, fmt.Errorf("no object items.properties.settings.properties")
	}
	indent := indentAt(old, props.Index)
	var b strings.Builder
	b.WriteString("{\n")
	for i, r := range setting.Table {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "%s  %q: %s", indent, r.Name, authorSchema(r))
	}
	b.WriteString("\n" + indent + "}")
	return splice(old, props.Index, props.Index+len(props.Raw), b.String()), nil
}

// authorSchema is the schema of a setting's value as an MCP file gives it.
func authorSchema(r setting.Row) string {
	switch r.Kind {
	case setting.Bool:
		return `{"type": "boolean"}`
	case setting.Tools:
		if r.Empty != "" {
			return `{"type": "array", "items": {"type": "string"}, "minItems": 1}`
		}
		return `{"type": "array", "items": {"type": "string"}}`
	case setting.Seconds:
		return fmt.Sprintf(`{"type": "integer", "minimum": 1, "maximum": %d, "description": "Seconds."}`, setting.MaxSeconds)
	}
	return "{}"
}

// trustSchema renders the trusted settings in docs/schema/trust.v1.json's
// definition: its properties between oauth and profiles (where
// trust.Definition has them), and which of them are required.
func trustSchema(old []byte) ([]byte, error) {
	def := gjson.GetBytes(old, "$defs.definition")
	props, required := def.Get("properties"), def.Get("required")
	var start, end int
	props.ForEach(func(k, v gjson.Result) bool {
		switch k.String() {
		case "oauth":
			start = v.Index + len(v.Raw)
			start += bytes.IndexByte(old[start:], '\n') + 1
		case "profiles":
			end = bytes.LastIndexByte(old[:k.Index], '\n') + 1
		}
		return true
	})
	if start <= 0 || end < start || !required.IsArray() || required.Index <= 0 || required.Index > start {
		return nil, fmt.Errorf("no definition with properties oauth, then profiles, after its required list")
	}
	indent := indentAt(old, end)
	var b strings.Builder
	keep := []string{}
	for _, k := range required.Array() {
		if !slices.ContainsFunc(setting.Trusted(), func(r setting.Row) bool { return r.Trust == k.String() }) {
			keep = append(keep, strconv.Quote(k.String()))
		}
	}
	for _, r := range setting.Trusted() {
		fmt.Fprintf(&b, "%s%q: %s,\n", indent, r.Trust, trustedSchema(r))
		if r.Kind == setting.Bool || r.Empty != "" {
			keep = append(keep, strconv.Quote(r.Trust))
		}
	}
	out := splice(old, start, end, b.String())
	return splice(out, required.Index, required.Index+len(required.Raw), "["+strings.Join(keep, ", ")+"]"), nil
}

// trustedSchema is the schema of a setting in trust's definition
// (trust.Settings): a boolean is always there, a tool list whose absence
// means something (Empty) is null then, any other is left out when empty.
func trustedSchema(r setting.Row) string {
	if r.Kind == setting.Bool {
		return `{"type": "boolean"}`
	}
	if r.Empty != "" {
		return fmt.Sprintf(`{"type": ["array", "null"], "items": {"type": "string"}, "description": %q}`, "null: "+r.Absent+".")
	}
	return `{"type": "array", "items": {"type": "string"}}`
}

// indentAt is the leading white space of the line holding offset.
func indentAt(data []byte, offset int) string {
	line := data[bytes.LastIndexByte(data[:offset], '\n')+1:]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

func splice(data []byte, start, end int, with string) []byte {
	return slices.Concat(data[:start], []byte(with), data[end:])
}
