package toolprofiles

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// builtinPatterns returns every pattern the built-in profiles carry — an
// Expansion's Pattern or a NamePattern, wherever in a profile it is —
// with the number of each kind found.
func builtinPatterns(t testing.TB) (all map[string]bool, rules, names int) {
	t.Helper()
	set, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	all = map[string]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Value())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				f, fv := v.Type().Field(i), v.Field(i)
				if !f.IsExported() {
					continue
				}
				if fv.Kind() == reflect.String && fv.String() != "" {
					switch {
					case f.Name == "Pattern" && v.Type() == reflect.TypeFor[Expansion]():
						all[fv.String()] = true
						rules++
					case f.Name == "NamePattern":
						all[fv.String()] = true
						names++
					}
				}
				walk(fv)
			}
		}
	}
	for _, p := range set.All() {
		walk(reflect.ValueOf(p))
	}
	return all, rules, names
}

// Every pattern of a built-in profile has a hand matcher, and every hand
// matcher serves a built-in pattern: a profile that gains a pattern, or
// changes one, changes the table too.
func TestBuiltinPatternsHaveMatchers(t *testing.T) {
	all, rules, names := builtinPatterns(t)
	if rules == 0 || names == 0 {
		t.Fatalf("found %d rule patterns and %d name patterns in the built-in profiles: the walk misses them", rules, names)
	}
	for p := range all {
		if handMatcher(p) == nil {
			t.Errorf("built-in pattern %q has no matcher in handMatchers (matchers.go): write one, and FuzzBuiltinMatchers holds it to the regexp", p)
		}
	}
	seen := map[string]bool{}
	for _, m := range handMatchers {
		if !all[m.pattern] {
			t.Errorf("handMatchers has %q, which no built-in profile uses: remove it", m.pattern)
		}
		if seen[m.pattern] {
			t.Errorf("handMatchers has %q twice", m.pattern)
		}
		seen[m.pattern] = true
	}
}

// A run with built-in profiles only compiles none of their patterns: the
// rules' methods and the name checks leave the regexp cache empty.
func TestBuiltinPatternsNotCompiled(t *testing.T) {
	set, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	patterns.Clear()
	t.Cleanup(patterns.Clear)
	values := append([]string{"a name", "ok-name"}, matcherSeeds...)
	for _, p := range set.All() {
		for _, e := range entryFormats(p) {
			for i := range e.Expands {
				x := &e.Expands[i]
				for _, v := range values {
					x.MatchString(v)
					x.FindStringIndex(v)
					x.FindAllStringIndex(v, -1)
				}
			}
			for _, v := range values {
				e.AcceptsName(v)
			}
		}
		for i := range p.Advice {
			for _, v := range values {
				p.Advice[i].Concerns(v)
			}
		}
	}
	patterns.Range(func(k, _ any) bool {
		t.Errorf("built-in pattern %q was compiled", k)
		return true
	})
}

// A pattern the table lacks — a user's or a workspace's — is compiled and
// matched by regexp as before, and a value without its needle still
// spares the compiling.
func TestOtherPatternsUseRegexp(t *testing.T) {
	patterns.Clear()
	t.Cleanup(patterns.Clear)
	const rule, name = `\$\{[^}]+\}`, `^[a-z]+$`
	if handMatcher(rule) != nil || handMatcher(name) != nil {
		t.Fatalf("the test's patterns have hand matchers: pick others")
	}
	x := &Expansion{Pattern: rule}
	if x.MatchString("no reference") {
		t.Errorf("%q matches text without a '$'", rule)
	}
	if _, ok := patterns.Load(rule); ok {
		t.Errorf("%q was compiled for a value without its needle", rule)
	}
	const v = "a ${X} ${} ${Y"
	if got, want := x.FindAllStringIndex(v, -1), regexp.MustCompile(rule).FindAllStringIndex(v, -1); !reflect.DeepEqual(got, want) {
		t.Errorf("FindAllStringIndex(%q) = %v, regexp: %v", v, got, want)
	}
	if _, ok := patterns.Load(rule); !ok {
		t.Errorf("%q was matched without being compiled", rule)
	}
	e := &EntryFormat{NamePattern: name}
	if !e.AcceptsName("abc") || e.AcceptsName("a-b") {
		t.Errorf("AcceptsName does not follow %q", name)
	}
	if _, ok := patterns.Load(name); !ok {
		t.Errorf("%q was matched without being compiled", name)
	}
}

// matcherSeeds are values of the kinds the rules meet, and the edges of
// each pattern: references of every tool's syntax, unterminated ones,
// Unicode letters and digits, invalid UTF-8, whitespace of every kind.
var matcherSeeds = []string{
	"",
	"node",
	"/home/u/ws/.repository/extensions/aifp/.venv/bin/python",
	"${workspaceFolder}/.repository/extensions/aifp/.venv/bin/python",
	"--root=${workspaceFolder}",
	"${workspaceFolder",
	"${workspaceFolderX}",
	"${env:SUDOCODE_TOKEN}",
	"${env:}",
	"${env:A B}",
	"${env:é}",
	"{env:X} {file:~/.secret} {env:} {file:}",
	"{env:{env:X}}",
	"${HOME}/x and $HOME/y and $ and $$ and $1",
	"${X:-default} ${X:-} ${X:-a}b} ${X:} ${X-} ${1X} ${_}",
	"${X:-unterminated",
	"\\$HOME \\$ \\ $\\$",
	"${a{b}} ${} ${{}} ${a}}",
	"%APPDATA% %A B% %% %a%b% %_% %\t% %é% %\xff%",
	"%APPDATA",
	"${{ secrets.X }} ${{secrets.X}} ${{  }} ${{ a b }} ${{ a }}} ${{\ta\n}} ${{ a } }",
	"${{ a\v}}",
	"${PLUGIN_ROOT}/bin ${PLUGIN_ROOT ${plugin_root}",
	"$héllo $٣٤ $_x $é\xff $\xff $\u00aa $\u2164 $\U0001F600",
	"$\xe2\x82 ${\xff} %\xff\xfe% ${env:\xff}",
	"\xef\xbf\xbd$\xef\xbf\xbd",
	"$x\n",
	"ok-name",
	"ok_name-9",
	"ok-name\n",
	"Server.Name",
	"scope:@org/name.v1",
	"has space",
	"émoji",
	"\xff",
}

// matchTokens are what random values are made of: the patterns' own
// pieces, and the characters at their edges.
var matchTokens = []string{
	"$", "{", "}", "%", "\\", ":", ":-", "-", "_", "env:", "file:", "workspaceFolder", "PLUGIN_ROOT",
	"{{", "}}", " ", "\t", "\n", "\v", "\f", "\r", "a", "Z", "9", ".", "@", "/", "é", "٣", "\xff", "\xe2\x82", "\U0001F600",
}

// checkAsRegexp fails when pattern's hand matcher answers otherwise than
// re on s, through the methods that use it: the three Expansion methods
// (FindAllStringIndex for several n) and the name check.
func checkAsRegexp(t *testing.T, pattern string, re *regexp.Regexp, s string) {
	t.Helper()
	x := &Expansion{Pattern: pattern}
	for _, n := range []int{-1, 0, 1, 2, 3} {
		if got, want := x.FindAllStringIndex(s, n), re.FindAllStringIndex(s, n); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: FindAllStringIndex(%q, %d) = %v, regexp: %v", pattern, s, n, got, want)
		}
	}
	if got, want := x.FindStringIndex(s), re.FindStringIndex(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: FindStringIndex(%q) = %v, regexp: %v", pattern, s, got, want)
	}
	if got, want := x.MatchString(s), re.MatchString(s); got != want {
		t.Fatalf("%q: MatchString(%q) = %v, regexp: %v", pattern, s, got, want)
	}
	if got, want := matches(pattern, s), re.MatchString(s); got != want {
		t.Fatalf("%q: matches(%q) = %v, regexp: %v", pattern, s, got, want)
	}
}

// handRegexps compiles each hand-matched pattern.
func handRegexps() (keys []string, res []*regexp.Regexp) {
	for _, m := range handMatchers {
		keys = append(keys, m.pattern)
		res = append(res, regexp.MustCompile(m.pattern))
	}
	return keys, res
}

// The hand matchers answer as regexp on the seeds and on random values
// made of the patterns' pieces (FuzzBuiltinMatchers goes further).
func TestBuiltinMatchersAsRegexp(t *testing.T) {
	keys, res := handRegexps()
	r := rand.New(rand.NewPCG(3, 4))
	values := append([]string(nil), matcherSeeds...)
	for range 3000 {
		var b strings.Builder
		for range r.IntN(16) {
			b.WriteString(matchTokens[r.IntN(len(matchTokens))])
		}
		values = append(values, b.String())
	}
	for i, p := range keys {
		for _, v := range values {
			checkAsRegexp(t, p, res[i], v)
		}
	}
}

// FuzzBuiltinMatchers: whatever the value, every hand matcher answers as
// its pattern's regexp.
func FuzzBuiltinMatchers(f *testing.F) {
	for _, s := range matcherSeeds {
		f.Add(s)
	}
	keys, res := handRegexps()
	f.Fuzz(func(t *testing.T, s string) {
		for i, p := range keys {
			checkAsRegexp(t, p, res[i], s)
		}
	})
}
