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
		// Replacements that meet, and an insertion where one ends.
		{[]Splice{{At: 6, Del: 2, Ins: []byte("Y")}, {At: 2, Del: 4, Ins: []byte("X")}, {At: 6, Ins: []byte("i")}}, "01XiY89"},
		// The whole text, and an insertion at its end.
		{[]Splice{{At: 0, Del: 10, Ins: []byte("new")}, {At: 10, Ins: []byte("!")}}, "new!"},
	} {
		ss := append([]Splice(nil), c.ss...)
		got, err := Apply(src, c.ss)
		if err != nil {
			t.Fatalf("Apply(%v): %v", c.ss, err)
		}
		if string(got) != c.want {
			t.Errorf("Apply(%v) = %q, want %q", c.ss, got, c.want)
		}
		for i := range ss {
			if ss[i].At != c.ss[i].At {
				t.Fatal("Apply reordered the caller's splices")
			}
		}
	}
}

// TestApplyRefuses: splices outside the text, or two that touch the same
// bytes, are an error rather than a garbled result or a panic.
func TestApplyRefuses(t *testing.T) {
	src := []byte("0123456789")
	for _, c := range []struct {
		name string
		ss   []Splice
	}{
		{"negative offset", []Splice{{At: -1, Ins: []byte("x")}}},
		{"negative length", []Splice{{At: 3, Del: -1}}},
		{"insertion past the end", []Splice{{At: 11, Ins: []byte("x")}}},
		{"deletion past the end", []Splice{{At: 8, Del: 3}}},
		{"huge deletion", []Splice{{At: 1, Del: int(^uint(0) >> 1)}}},
		{"two replacements overlap", []Splice{{At: 2, Del: 3}, {At: 4, Del: 2}}},
		{"the same bytes twice", []Splice{{At: 2, Del: 3, Ins: []byte("a")}, {At: 2, Del: 3, Ins: []byte("b")}}},
		{"insertion inside a replacement", []Splice{{At: 2, Del: 3}, {At: 3, Ins: []byte("x")}}},
		{"replacement inside another", []Splice{{At: 5, Del: 1}, {At: 1, Del: 8}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, err := Apply(src, c.ss); err == nil {
				t.Fatalf("Apply(%v) = %q, want an error", c.ss, got)
			}
		})
	}
}

func TestFirstInvalidUTF8(t *testing.T) {
	for in, want := range map[string]int{"": 0, "abc": 3, "aé": 3, "a\xffb": 1, "\xc3": 0, "ok\xed\xa0\x80": 2} {
		if got := FirstInvalidUTF8([]byte(in)); got != want {
			t.Errorf("FirstInvalidUTF8(%q) = %d, want %d", in, got, want)
		}
	}
}
