package textedit

import "testing"

func TestApply(t *testing.T) {
	src := []byte("0123456789")
	for _, c := range []struct {
		ss   []Splice
		want string
	}{
		{nil, "0123456789"},
		{[]Splice{{At: 10, Ins: []byte("!")}, {At: 0, Ins: []byte("^")}}, "^0123456789!"},
		{[]Splice{{At: 2, Del: 3}, {At: 7, Del: 1, Ins: []byte("x")}}, "0156x89"},
		// At one offset: insertions first (in the order given), then the replacement.
		{[]Splice{{At: 4, Del: 2, Ins: []byte("R")}, {At: 4, Ins: []byte("a")}, {At: 4, Ins: []byte("b")}}, "0123abR6789"},
	} {
		ss := append([]Splice(nil), c.ss...)
		if got := string(Apply(src, c.ss)); got != c.want {
			t.Errorf("Apply(%v) = %q, want %q", c.ss, got, c.want)
		}
		for i := range ss {
			if ss[i].At != c.ss[i].At {
				t.Fatal("Apply reordered the caller's splices")
			}
		}
	}
}

func TestFirstInvalidUTF8(t *testing.T) {
	for in, want := range map[string]int{"": 0, "abc": 3, "aé": 3, "a\xffb": 1, "\xc3": 0, "ok\xed\xa0\x80": 2} {
		if got := FirstInvalidUTF8([]byte(in)); got != want {
			t.Errorf("FirstInvalidUTF8(%q) = %d, want %d", in, got, want)
		}
	}
}
