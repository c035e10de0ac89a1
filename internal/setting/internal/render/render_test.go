package render

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/setting"
)

// root is the repository root, from this package's folder.
var root = filepath.Join("..", "..", "..", "..")

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestGeneratedAreCurrent fails when a file generated from the table, or
// the generated part of one, is not what the table gives: a setting the
// table has and a struct, doc row or schema property lacks, or the
// reverse.
func TestGeneratedAreCurrent(t *testing.T) {
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	for _, f := range Files() {
		got := read(t, f.Path)
		want, err := f.Render(got)
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date with the settings table: run go generate ./internal/setting (or make generate)", f.Path)
		}
	}
}

// TestDriftIsCaught: what the table lacks — a schema property, a doc row,
// a struct field — is rendered away, so TestGeneratedAreCurrent sees it.
func TestDriftIsCaught(t *testing.T) {
	edits := map[string][2]string{
		"docs/schema/mcp-list.v1.json":   {`"enabled": {"type": "boolean"},`, `"enabled": {"type": "boolean"}, "retries": {"type": "integer"},`},
		"docs/schema/trust.v1.json":      {`"enabled": {"type": "boolean"},`, `"enabled": {"type": "boolean"}, "retries": {"type": "integer"},`},
		"docs/extension-authors.md":      {"| `toolTimeout` |", "| `retries` | seconds | Tries. |\n| `toolTimeout` |"},
		"docs/tool-profiles.md":          {"| `tool_timeout` |", "| `retries` | `retries` | seconds | |\n| `tool_timeout` |"},
		"extensions/settings_gen.go":     {"ToolTimeout int64", "ToolTimeout int64\n\tRetries int64"},
		"toolprofiles/settings_gen.go":   {"type Settings struct {", "type Settings struct {\n\tRetries *SettingField `toml:\"retries\"`"},
		"internal/trust/settings_gen.go": {"type Settings struct {", "type Settings struct {\n\tRetries int64 `json:\"retries\"`"},
	}
	for _, f := range Files() {
		e, ok := edits[f.Path]
		if !ok {
			t.Errorf("%s: no drift tried", f.Path)
			continue
		}
		clean := read(t, f.Path)
		drifted := bytes.Replace(clean, []byte(e[0]), []byte(e[1]), 1)
		if bytes.Equal(drifted, clean) {
			t.Fatalf("%s: %q not found", f.Path, e[0])
		}
		if got, err := f.Render(drifted); err != nil || !bytes.Equal(got, clean) {
			t.Errorf("%s: a property the table lacks survives rendering (%v)", f.Path, err)
		}
	}
}

// TestOneRowReachesEveryFile: a row added to the table appears in every
// generated file, so adding a setting is a row (and, where its meaning is
// more than its kind, a translator case).
func TestOneRowReachesEveryFile(t *testing.T) {
	saved := setting.Table
	t.Cleanup(func() { setting.Table = saved })
	setting.Table = append(append([]setting.Row{}, saved...),
		setting.Row{Name: "allowedRoots", Kind: setting.Tools, Meaning: "Folders the server may read.", Profile: "allowed_roots", Trust: "allowed_roots"},
		setting.Row{Name: "retryCount", Kind: setting.Seconds, Meaning: "How long to retry.", Profile: "retry_count"})
	if err := Check(); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"extensions/settings_gen.go":     {"AllowedRoots []string", "RetryCount int64", `case "allowedRoots":`, `case "retryCount":`},
		"toolprofiles/settings_gen.go":   {"AllowedRoots *SettingField `toml:\"allowed_roots\"`", "RetryCount *SettingField `toml:\"retry_count\"`"},
		"internal/trust/settings_gen.go": {"AllowedRoots []string `json:\"allowed_roots,omitempty\"`"},
		"docs/extension-authors.md":      {"| `allowedRoots` | array of tool names | Folders the server may read. |", "| `retryCount` | whole seconds"},
		"docs/tool-profiles.md":          {"| `allowed_roots` | `allowedRoots` | tool names | `each` |", "| `retry_count` | `retryCount` | seconds |"},
		"docs/schema/mcp-list.v1.json":   {`"allowedRoots": {"type": "array"`, `"retryCount": {"type": "integer"`},
		"docs/schema/trust.v1.json":      {`"allowed_roots": {"type": "array"`},
	}
	for _, f := range Files() {
		out, err := f.Render(read(t, f.Path))
		if err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		for _, w := range want[f.Path] {
			if !bytes.Contains(out, []byte(w)) {
				t.Errorf("%s lacks %s", f.Path, w)
			}
		}
		if strings.Contains(string(out), "retry_count\":") && f.Path == "docs/schema/trust.v1.json" {
			t.Errorf("%s: a setting trust does not judge is in its definition", f.Path)
		}
	}
}

// TestCheckRefuses: rows the code cannot handle are refused by name.
func TestCheckRefuses(t *testing.T) {
	saved := setting.Table
	t.Cleanup(func() { setting.Table = saved })
	for name, row := range map[string]setting.Row{
		"a name taken":       {Name: "enabled", Kind: setting.Bool, Meaning: "x", Profile: "other"},
		"a key taken":        {Name: "other", Kind: setting.Bool, Meaning: "x", Profile: "enabled"},
		"upper-case":         {Name: "Other", Kind: setting.Bool, Meaning: "x", Profile: "other"},
		"no meaning":         {Name: "other", Kind: setting.Bool, Profile: "other"},
		"words on a list":    {Name: "other", Kind: setting.Tools, Meaning: "x", Profile: "other", On: "yes"},
		"empty on a bool":    {Name: "other", Kind: setting.Bool, Meaning: "x", Profile: "other", Empty: "no", Absent: "all"},
		"empty alone":        {Name: "other", Kind: setting.Tools, Meaning: "x", Profile: "other", Empty: "no"},
		"every request list": {Name: "other", Kind: setting.Tools, Meaning: "x", Profile: "other", EveryRequest: true},
		"trusted timeout":    {Name: "other", Kind: setting.Seconds, Meaning: "x", Profile: "other", Trust: "other"},
		"no kind":            {Name: "other", Meaning: "x", Profile: "other"},
	} {
		setting.Table = append(append([]setting.Row{}, saved...), row)
		if Check() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

var backticked = regexp.MustCompile("`([A-Za-z]+)`")

// TestProseNamesEverySetting: a paragraph or table row of the docs (outside
// the generated tables) that names most settings but not all lists them and
// has forgotten some.
func TestProseNamesEverySetting(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"))
	names := setting.Names()
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, unit := range proseUnits(string(data)) {
			seen := map[string]bool{}
			for _, m := range backticked.FindAllStringSubmatch(unit.text, -1) {
				seen[m[1]] = true
			}
			var missing []string
			for _, n := range names {
				if !seen[n] {
					missing = append(missing, n)
				}
			}
			if len(missing) > 0 && len(names)-len(missing) > len(names)/2 {
				t.Errorf("%s:%d names the settings but %s", filepath.Base(page), unit.line, strings.Join(missing, ", "))
			}
		}
	}
}

type prose struct {
	line int
	text string
}

// item starts an item of a list.
var item = regexp.MustCompile(`^\s*([-*]|[0-9]+\.) `)

// proseUnits splits a page into paragraphs, list items and table rows, leaving out
// what is generated (between "generated" markers and their end).
func proseUnits(page string) []prose {
	var out []prose
	var cur []string
	start, generated := 0, false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, prose{start, strings.Join(cur, "\n")})
		}
		cur = nil
	}
	for i, line := range strings.Split(page, "\n") {
		switch {
		case strings.HasPrefix(line, "<!--") && strings.Contains(line, "generated"):
			flush()
			generated = true
		case strings.HasPrefix(line, "<!-- end of"):
			generated = false
		case generated:
		case strings.TrimSpace(line) == "" || strings.HasPrefix(line, "|"):
			flush()
			if strings.HasPrefix(line, "|") {
				out = append(out, prose{i + 1, line})
			}
		default:
			if item.MatchString(line) {
				flush()
			}
			if len(cur) == 0 {
				start = i + 1
			}
			cur = append(cur, line)
		}
	}
	flush()
	return out
}
