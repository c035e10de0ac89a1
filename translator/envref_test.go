package translator

import (
	"reflect"
	"regexp"
	"testing"
)

// envRefPattern is the pattern envRefs reads by hand.
var envRefPattern = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?\}`)

func sameAsPattern(t *testing.T, s string) {
	t.Helper()
	want := envRefPattern.FindAllStringSubmatchIndex(s, -1)
	if got := envRefs(s); !reflect.DeepEqual(got, want) {
		t.Errorf("envRefs(%q) = %v, the pattern finds %v", s, got, want)
	}
	if got, want := firstEnvRef(s), envRefPattern.FindString(s); got != want {
		t.Errorf("firstEnvRef(%q) = %q, the pattern finds %q", s, got, want)
	}
}

// envRefs and firstEnvRef find what the pattern finds.
func TestEnvRefsAsPattern(t *testing.T) {
	for _, s := range []string{
		"", "plain", "$HOME", "${HOME}", "${HOME", "${}", "${1A}", "${_}", "${A1_b}", "x${A}y${B}z",
		"${A:-}", "${A:-default}", "${A:-de}fault}", "${A:-x${B}}", "${A:-no end", "${A:}", "${A-x}",
		"${{ secrets.X }}", "${env:HOME}", "${input:token}", "$${A}", "${${A}}", "${A}}", "{${A}",
		"${A:-\n}", "${A:-é}", "${é}", "${A\x00}", "${A:-\xff}", "Bearer ${TOKEN}", "${A}${B:-c}${",
	} {
		sameAsPattern(t, s)
	}
}

func FuzzEnvRefs(f *testing.F) {
	for _, s := range []string{"${A}", "${A:-b}", "x${A:-${B}}y", "${{x}}", "${env:X}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameAsPattern(t, s) })
}
