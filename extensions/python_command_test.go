package extensions

import (
	"regexp"
	"testing"
)

// isPythonCommand reads exactly what the pattern it replaced matched.
func TestIsPythonCommand(t *testing.T) {
	pattern := regexp.MustCompile(`^python(3(\.[0-9]+)?)?$`)
	for _, c := range []string{
		"python", "python3", "python3.12", "python3.1", "python3.0123",
		"", "p", "pytho", "python2", "python3.", "python3.x", "python3.12a", "python3..1",
		"python33", "python 3", "/usr/bin/python", "python3.12 ", " python", "PYTHON", "python3.1.2",
		"pythonw", "python-3", "python3.١", "python\x00",
	} {
		if got, want := isPythonCommand(c), pattern.MatchString(c); got != want {
			t.Errorf("isPythonCommand(%q) = %v, the pattern says %v", c, got, want)
		}
	}
}

func FuzzIsPythonCommand(f *testing.F) {
	pattern := regexp.MustCompile(`^python(3(\.[0-9]+)?)?$`)
	for _, s := range []string{"python", "python3", "python3.12", "python3."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, c string) {
		if got, want := isPythonCommand(c), pattern.MatchString(c); got != want {
			t.Errorf("isPythonCommand(%q) = %v, the pattern says %v", c, got, want)
		}
	})
}
