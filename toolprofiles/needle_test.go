package toolprofiles

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// needleCases are patterns whose needle is known, the built-in shapes
// and the ones the scan must not misread.
var needleCases = []struct {
	pattern string
	needle  byte // 0: none
}{
	{`\$\{[^}]*\}`, '$'},
	{`^\$(\w+|\{[^}]*\})`, '$'},
	{`\$([\pL\pN_]+|\{[^}]*\})`, '$'},
	{`\{(env|file):[^}]+\}`, '{'},
	{`%[^%\s]+%`, '%'},
	{`%\w+%`, '%'},
	{`\$+x`, '$'},
	{`\$[|]`, '$'},
	{`\$[]|]`, '$'},
	{`\$[^]|]`, '$'},
	{`\$[[:alpha:]|]`, '$'},
	{`\$[\]|]`, '$'},
	{`\$\p{Greek}+`, '$'},
	// Alternation at the top: the first character need not be there.
	{`\$\{[^{}]+\}|\$[A-Za-z_][A-Za-z0-9_]*|\\\$`, 0},
	{`\$x|y`, 0},
	{`\$(x)|y`, 0},
	{`\$[[:alpha:]]|y`, 0},
	{`\$[]]|y`, 0},
	// The first character may be absent.
	{`\$?x`, 0},
	{`\$*x`, 0},
	{`\${0,2}x`, 0},
	{`%?`, 0},
	// Shapes the scan does not read.
	{`(?i)\$x`, 0},
	{`[$]x`, 0},
	{`x\$`, 0},
	{`\bx`, 0},
	{`\$\Q|\E`, 0},
	{`.x`, 0},
	{``, 0},
}

func TestNeedle(t *testing.T) {
	for _, c := range needleCases {
		got, ok := needle(c.pattern)
		if !ok {
			got = 0
		}
		if got != c.needle {
			t.Errorf("needle(%q) = %q, want %q", c.pattern, got, c.needle)
		}
	}
}

// Every match of a pattern holds its needle: a value without it cannot
// match, for the built-in rules and the cases above, on values made of the
// characters the patterns are about.
func TestNeedleIsInEveryMatch(t *testing.T) {
	patterns := map[string]bool{}
	for _, c := range needleCases {
		if c.pattern != "" {
			patterns[c.pattern] = true
		}
	}
	set, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	builtinWith := 0
	for _, p := range set.All() {
		for _, e := range entryFormats(p) {
			for _, x := range e.Expands {
				if x.Pattern != "" {
					patterns[x.Pattern] = true
					if _, ok := needle(x.Pattern); ok {
						builtinWith++
					}
				}
			}
		}
	}
	if builtinWith == 0 {
		t.Fatal("no built-in rule has a needle: the shortcut would never apply")
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "$%{}[]()|\\:_-aZ9 éx\n"
	letters := []rune(alphabet)
	for pattern := range patterns {
		re := regexp.MustCompile(pattern)
		c, ok := needle(pattern)
		if !ok {
			continue
		}
		for range 2000 {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteRune(letters[r.IntN(len(letters))])
			}
			s := b.String()
			if m := re.FindStringIndex(s); m != nil && !strings.Contains(s[m[0]:m[1]], string(c)) {
				t.Fatalf("%q matches %q in %q without its needle %q", pattern, s[m[0]:m[1]], s, c)
			}
		}
	}
}

// FuzzNeedle: whatever the pattern, a value without its needle does not
// match it.
func FuzzNeedle(f *testing.F) {
	for _, c := range needleCases {
		f.Add(c.pattern, "a $x ${y} %z% {env:w}")
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		c, ok := needle(pattern)
		if !ok {
			return
		}
		if m := re.FindStringIndex(s); m != nil && !strings.Contains(s[m[0]:m[1]], string(c)) {
			t.Fatalf("%q matches %q in %q without its needle %q", pattern, s[m[0]:m[1]], s, c)
		}
	})
}

// The Expansion methods match as the compiled Pattern does.
func TestExpansionMatchesAsRegexp(t *testing.T) {
	values := []string{"", "node", "/usr/bin/python3", "${HOME}/x", "$HOME", "%APPDATA%", "{env:X}", "a$", "${{ secrets.X }}"}
	set, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.All() {
		for _, e := range entryFormats(p) {
			for i := range e.Expands {
				x := &e.Expands[i]
				for _, v := range values {
					var want, wantAll []int
					if re := x.Regexp(); re != nil {
						want = re.FindStringIndex(v)
						for _, m := range re.FindAllStringIndex(v, -1) {
							wantAll = append(wantAll, m...)
						}
					}
					var gotAll []int
					for _, m := range x.FindAllStringIndex(v, -1) {
						gotAll = append(gotAll, m...)
					}
					if got := x.FindStringIndex(v); !equalInts(got, want) || x.MatchString(v) != (want != nil) || !equalInts(gotAll, wantAll) {
						t.Errorf("%s %q on %q: FindStringIndex %v, MatchString %v, FindAllStringIndex %v; the regexp: %v, %v",
							p.ID, x.Pattern, v, got, x.MatchString(v), gotAll, want, wantAll)
					}
				}
			}
		}
	}
}

// patternRules are the built-in profiles' expansion rules that have a
// Pattern.
func patternRules(tb testing.TB) []*Expansion {
	set, err := Builtin()
	if err != nil {
		tb.Fatal(err)
	}
	var rules []*Expansion
	for _, p := range set.All() {
		for _, e := range entryFormats(p) {
			for i := range e.Expands {
				if e.Expands[i].Pattern != "" {
					rules = append(rules, &e.Expands[i])
				}
			}
		}
	}
	return rules
}

// entryFormats are a profile's entry dialects: its own and its scopes'.
func entryFormats(p *Profile) []*EntryFormat {
	entries := []*EntryFormat{&p.Entry}
	for _, t := range []*Target{p.Scopes.Project, p.Scopes.Local, p.Scopes.User} {
		if t != nil && t.Entry != nil {
			entries = append(entries, t.Entry)
		}
	}
	return entries
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BenchmarkExpansionMatch is the first check of a run: the example
// workspace's commands and arguments against every built-in rule, with
// nothing compiled yet. "needle" is the rules' methods: a hand matcher
// for each built-in pattern (matchers.go), before which a rule was
// compiled only for a value holding its needle; "compile" is what the
// translator did before either.
func BenchmarkExpansionMatch(b *testing.B) {
	rules := patternRules(b)
	values := []string{"python3", "-m", "aifp", "--root=/home/u/ws", "node", "/home/u/ws/.repository/extensions/sudocode/dist/sudocode-mcp.js",
		"/home/u/ws/.repository/extensions/aifp/.venv/bin/python", "serve", "--root", "/home/u/ws/references.json"}
	for _, bc := range []struct {
		name  string
		match func(x *Expansion, v string) bool
	}{
		{"needle", (*Expansion).MatchString},
		{"compile", func(x *Expansion, v string) bool { return x.Regexp().MatchString(v) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				patterns.Clear()
				for _, x := range rules {
					for _, v := range values {
						if bc.match(x, v) {
							b.Fatalf("%q matches %q", x.Pattern, v)
						}
					}
				}
			}
		})
	}
}

// BenchmarkExpansionFindAll is what a check of the example workspace asks
// of the rules once its values hold references: every built-in rule's
// FindAllStringIndex on the values the translator writes and reads back
// (paths under ${workspaceFolder}, ${env:X}, 17 to 84 bytes). "first"
// clears the compiled patterns each time, as a new process starts with
// none; "warm" keeps them.
func BenchmarkExpansionFindAll(b *testing.B) {
	rules := patternRules(b)
	values := []string{
		"${workspaceFolder}/.repository/extensions/aifp/.venv/bin/python",
		"--root=${workspaceFolder}",
		"${workspaceFolder}/.repository/extensions/reference-manager/bin/reference-manager.js",
		"${workspaceFolder}/references.json",
		"${workspaceFolder}/.repository/extensions/sudocode/dist/sudocode-mcp.js",
		"${env:SUDOCODE_TOKEN}",
		"${SUDOCODE_TOKEN}",
		"{env:SUDOCODE_TOKEN}",
		"/home/u/ws/.repository/extensions/vault-spec/lib/scripts/subagent.py",
	}
	for _, bc := range []struct {
		name  string
		clear bool
	}{{"first", true}, {"warm", false}} {
		b.Run(bc.name, func(b *testing.B) {
			found := 0
			for range b.N {
				if bc.clear {
					patterns.Clear()
				}
				for _, x := range rules {
					for _, v := range values {
						found += len(x.FindAllStringIndex(v, -1))
					}
				}
			}
			if found == 0 {
				b.Fatal("no rule matched a value: the benchmark measures nothing")
			}
		})
	}
}
