package ordered

import (
	"encoding/json"
	"testing"
)

func TestJSONKeepsOrderAndDoesNotEscapeHTML(t *testing.T) {
	o := Object{{"z", "a&b<c>"}, {"a", []string{"x", "ü"}}, {"m", Object{{"k", true}, {"n", int64(3)}}}, {"raw", json.RawMessage(`{"q":1}`)}}
	got := string(JSON(o))
	want := `{"z":"a&b<c>","a":["x","ü"],"m":{"k":true,"n":3},"raw":{"q":1}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Fatal("invalid JSON")
	}
}

func TestSetWithoutGet(t *testing.T) {
	var o Object
	o = o.Set("a", "1").Set("b", "2").Set("a", "3")
	if v, _ := o.Get("a"); v != "3" || len(o) != 2 || o.Keys()[0] != "a" {
		t.Fatalf("%v", o)
	}
	if w := o.Without("a"); len(w) != 1 || w[0].Key != "b" || len(o) != 2 {
		t.Fatalf("Without changed the original or kept the key: %v %v", o, w)
	}
}

func TestMapValuesAreSorted(t *testing.T) {
	got := string(JSON(Object{{"set", map[string]any{"b": 1, "a": true}}}))
	if got != `{"set":{"a":true,"b":1}}` {
		t.Fatal(got)
	}
}
