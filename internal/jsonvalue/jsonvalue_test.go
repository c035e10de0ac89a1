package jsonvalue

import (
	"encoding/json"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestEqual(t *testing.T) {
	cases := []struct {
		a, b      string
		text, flt bool
	}{
		{`{"a":1,"b":[true,null,"x"]}`, ` { "b" : [ true , null , "x" ] , "a" : 1 } `, true, true},
		{`1`, `1.0`, false, true},
		{`[1,2]`, `[2,1]`, false, false},
		{`{"a":1}`, `{"a":1,"b":2}`, false, false},
		{`"1"`, `1`, false, false},
		{`1e400`, `1e400`, true, false},
		{`{"a":1} x`, `{"a":1}`, false, false},
		{`{"a":1}}`, `{"a":1}`, false, false},
		{`{"a":`, `{"a":`, false, false},
		{"-0", "0", false, true},
	}
	for _, c := range cases {
		if got := Equal([]byte(c.a), []byte(c.b), SameText); got != c.text {
			t.Errorf("Equal(%s, %s, SameText) = %v", c.a, c.b, got)
		}
		if got := Equal([]byte(c.a), []byte(c.b), SameFloat); got != c.flt {
			t.Errorf("Equal(%s, %s, SameFloat) = %v", c.a, c.b, got)
		}
	}
}

// SameFloat is encoding/json's comparison: decoding into any (numbers as
// float64) and reflect.DeepEqual agree with it on valid documents.
func TestSameFloatIsEncodingJSON(t *testing.T) {
	docs := []string{`1`, `1.0`, `1e0`, `-0`, `0`, `[1,{"a":2.50}]`, `[1,{"a":2.5}]`, `{"x":"1"}`, `1e400`, `123456789012345678901`, `123456789012345678902`}
	for _, a := range docs {
		for _, b := range docs {
			var va, vb any
			want := json.Unmarshal([]byte(a), &va) == nil && json.Unmarshal([]byte(b), &vb) == nil && reflect.DeepEqual(va, vb)
			if got := Equal([]byte(a), []byte(b), SameFloat); got != want {
				t.Errorf("Equal(%s, %s, SameFloat) = %v, encoding/json says %v", a, b, got, want)
			}
		}
	}
}

// TestSameNumber: equal values in any spelling are equal; different values
// are not, however close.
func TestSameNumber(t *testing.T) {
	for _, group := range [][]string{
		{"1000", "1e3", "1.0e+3", "1000.000", "10e2", "0.1e4"},
		{"0", "-0", "0.0", "0e10", "-0.0e-5"},
		{"-1.5", "-15e-1", "-0.15E1"},
	} {
		for _, s := range group[1:] {
			if !SameNumber(json.Number(group[0]), json.Number(s)) {
				t.Errorf("SameNumber(%s, %s) = false", group[0], s)
			}
		}
	}
	for _, c := range [][2]string{{"1", "1.0000000000000000000001"}, {"1", "-1"}, {"1e400", "1e401"}, {"1", "x"}, {"x", "x"}, {"", ""}} {
		if SameNumber(json.Number(c[0]), json.Number(c[1])) {
			t.Errorf("SameNumber(%s, %s) = true", c[0], c[1])
		}
	}
}

// FuzzSameNumber holds the number rule to big-decimal arithmetic: two JSON
// numbers are SameNumber exactly when math/big says their values are equal;
// the rule is symmetric; a number respelled (exponent moved, zeros added)
// stays equal; and SameFloat is SameNumber of the float64 roundings.
func FuzzSameNumber(f *testing.F) {
	for _, c := range [][2]string{
		{"1000", "1e3"}, {"0", "-0.0e-5"}, {"-1.5", "-15e-1"}, {"1", "1.0000000000000000000001"},
		{"123456789012345678901", "123456789012345678902"}, {"1e400", "10e399"}, {"0.1", "1E-1"}, {"5", "6"},
	} {
		f.Add(c[0], c[1], uint8(3))
	}
	f.Fuzz(func(t *testing.T, a, b string, shift uint8) {
		xa, xb := json.Number(a), json.Number(b)
		got := SameNumber(xa, xb)
		if got != SameNumber(xb, xa) {
			t.Fatalf("SameNumber(%s, %s) = %v but not the other way round", a, b, got)
		}
		if !isJSONNumber(a) || !isJSONNumber(b) {
			return
		}
		if !SameNumber(xa, xa) {
			t.Fatalf("SameNumber(%s, %s) = false", a, a)
		}
		ra, okA := bigRat(a)
		rb, okB := bigRat(b)
		if okA && okB {
			if want := ra.Cmp(rb) == 0; got != want {
				t.Fatalf("SameNumber(%s, %s) = %v, math/big says %v", a, b, got, want)
			}
		}
		// The same value spelled with its exponent moved by n and n zeros
		// added to the mantissa.
		n := int(shift % 8)
		respelled := json.Number(mantissa(a) + strings.Repeat("0", n) + "e" + strconv.Itoa(exponent(a)-n))
		if !SameNumber(xa, respelled) {
			t.Fatalf("SameNumber(%s, %s) = false", a, respelled)
		}
		// SameFloat: SameNumber of what a float64 reader holds.
		fa, errA := strconv.ParseFloat(a, 64)
		fb, errB := strconv.ParseFloat(b, 64)
		want := errA == nil && errB == nil &&
			SameNumber(json.Number(strconv.FormatFloat(fa, 'g', -1, 64)), json.Number(strconv.FormatFloat(fb, 'g', -1, 64)))
		if sf := SameFloat(xa, xb); sf != want {
			t.Fatalf("SameFloat(%s, %s) = %v, SameNumber of the float64 values says %v", a, b, sf, want)
		}
	})
}

// isJSONNumber reports whether s is a number as JSON spells it (as Decode
// gives it: no space around it), with an exponent small enough for
// big.Rat.
func isJSONNumber(s string) bool {
	if s == "" || s[0] != '-' && (s[0] < '0' || s[0] > '9') {
		return false
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if dec.Decode(&v) != nil || dec.InputOffset() != int64(len(s)) {
		return false
	}
	if _, ok := v.(json.Number); !ok {
		return false
	}
	e := exponent(s)
	return e > -100000 && e < 100000
}

// mantissa is s without its exponent and decimal point; exponent the power
// of ten that goes with it.
func mantissa(s string) string {
	m, _, _ := strings.Cut(strings.ToLower(s), "e")
	return strings.Replace(m, ".", "", 1)
}

func exponent(s string) int {
	m, e, _ := strings.Cut(strings.ToLower(s), "e")
	n, err := strconv.Atoi(e)
	if e != "" && err != nil {
		return 1 << 30 // out of any range the test uses
	}
	if _, frac, ok := strings.Cut(m, "."); ok {
		n -= len(frac)
	}
	return n
}

func bigRat(s string) (*big.Rat, bool) {
	return new(big.Rat).SetString(s)
}
