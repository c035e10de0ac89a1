package jsonvalue

import (
	"encoding/json"
	"reflect"
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
