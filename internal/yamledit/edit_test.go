package yamledit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/repo-manager/repo/internal/textedit"
)

func TestSetErrors(t *testing.T) {
	const ok = `{"command":"x"}`
	for _, tc := range []struct {
		name      string
		in        string
		path      []string
		kind      Kind
		nameField string
		key       string
		value     string
		shape     bool // *ShapeError, else *ValueError
		msg       string
	}{
		{"flow list with entries", "mcpServers: [{name: a, command: x}]\n", mcpServers, List, "name", "b", ok, true, "flow style"},
		{"flow map with entries", "extensions: {a: {cmd: x}}\n", extensions, Map, "name", "b", ok, true, "flow style"},
		{"flow top level", "{name: x}\n", mcpServers, List, "name", "b", ok, true, "flow-style mapping"},
		{"anchored container", "mcpServers: &s\n- name: a\n", mcpServers, List, "name", "b", ok, true, "anchor, a tag or an alias"},
		{"aliased container", "s: &s\n- name: a\nmcpServers: *s\n", mcpServers, List, "name", "b", ok, true, "anchor, a tag or an alias"},
		{"tagged null", "mcpServers: !!null\n", mcpServers, List, "name", "b", ok, true, "anchor, a tag or an alias"},
		{"empty value on two lines", "mcpServers: [\n]\n", mcpServers, List, "name", "b", ok, true, "not on the key's line"},
		{"explicit key", "? mcpServers\n:\n", mcpServers, List, "name", "b", ok, true, "explicit"},
		{"plain scalar continued at the end", "0:\n0\n -", mcpServers, List, "name", "b", ok, true, "repo cannot add lines after line 3"},
		{"value not JSON", "", mcpServers, List, "name", "b", `{"command":`, false, "not valid JSON"},
		{"value not an object", "", mcpServers, List, "name", "b", `["x"]`, false, "not a JSON object"},
		{"value with the name field", "", mcpServers, List, "name", "b", `{"name":"b"}`, false, "name field"},
		{"duplicate key in value", "", mcpServers, List, "name", "b", `{"a":1,"a":2}`, false, "duplicate key"},
		{"number out of range", "", mcpServers, List, "name", "b", `{"t":1e400}`, false, "out of range"},
		{"invalid UTF-8 name", "", mcpServers, List, "name", "\xff", ok, false, "UTF-8"},
		{"key too long", "", mcpServers, List, "name", "b", `{"` + strings.Repeat("k", 1100) + `":1}`, false, "longer than YAML allows"},
		{"empty path", "", nil, List, "name", "b", ok, false, "empty path"},
		{"no name field", "", mcpServers, List, "", "b", ok, false, "name field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in)
			_, err := d.set(tc.path, tc.kind, tc.nameField, tc.key, []byte(tc.value))
			if err == nil {
				t.Fatal("no error")
			}
			var se *ShapeError
			var ve *ValueError
			if tc.shape && !errors.As(err, &se) || !tc.shape && !errors.As(err, &ve) {
				t.Fatalf("got %T %v", err, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("got %q, want it to contain %q", err, tc.msg)
			}
		})
	}
}

func TestDeleteNothingToDo(t *testing.T) {
	for _, in := range []string{"", "name: x\n", "mcpServers:\n", "mcpServers: []\n", continueConfig, "mcpServers: [{name: other}]\n"} {
		d := mustParse(t, in)
		got, err := d.Delete(mcpServers, List, "name", "absent")
		if err != nil || got != d {
			t.Fatalf("%q: Delete = %p %v, want the same doc", in, got, err)
		}
	}
}

// TestDeleteLastEntry spells out what Delete leaves when it removes the last
// entry of a container.
func TestDeleteLastEntry(t *testing.T) {
	const v = `{"command":"x"}`
	t.Run("created in this edit chain: original bytes", func(t *testing.T) {
		for _, in := range []string{
			"", "name: x", "name: x\n", "mcpServers:\n", "mcpServers:  []  # none\n", "mcpServers: null\nb: 1",
			"y: 1\r\n", bomStr + "a: b\n", "x:\n  y: 1\n", "x: {}\n",
		} {
			for _, path := range [][]string{mcpServers, {"x", "servers"}} {
				d := mustParse(t, in)
				nd, err := d.set(path, List, "name", "a", []byte(v))
				if err != nil {
					t.Fatalf("%q: Set: %v", in, err)
				}
				back, err := nd.Delete(path, List, "name", "a")
				if err != nil {
					t.Fatalf("%q: Delete: %v", in, err)
				}
				if string(back.Bytes()) != in {
					t.Fatalf("%q %q: got back %q", in, path, back.Bytes())
				}
			}
		}
	})
	t.Run("two entries, both deleted in the chain", func(t *testing.T) {
		d := mustParse(t, "name: x\n")
		d1, _ := d.set(mcpServers, List, "name", "a", []byte(v))
		d2, _ := d1.set(mcpServers, List, "name", "b", []byte(v))
		d3, _ := d2.Delete(mcpServers, List, "name", "a")
		d4, err := d3.Delete(mcpServers, List, "name", "b")
		if err != nil || string(d4.Bytes()) != "name: x\n" {
			t.Fatalf("got %q %v", d4.Bytes(), err)
		}
	})
	t.Run("another edit in between: empty flow value", func(t *testing.T) {
		d := mustParse(t, "name: x\n")
		d1, _ := d.set(mcpServers, List, "name", "a", []byte(v))
		d2, _ := d1.set([]string{"other"}, Map, "name", "o", []byte(v))
		d3, err := d2.Delete(mcpServers, List, "name", "a")
		if err != nil {
			t.Fatal(err)
		}
		want := "name: x\nmcpServers: []\nother:\n  # >>> repo managed: o\n  o:\n    command: x\n  # <<< repo managed: o\n"
		if got := string(d3.Bytes()); got != want {
			t.Fatal(diff(got, want))
		}
	})
	for _, tc := range []struct {
		name string
		in   string
		path []string
		kind Kind
		want string
	}{
		{"pre-existing list", "mcpServers:   # mine\n# >>> repo managed: a\n- name: a\n  command: x\n# <<< repo managed: a\nb: 1\n", mcpServers, List, "mcpServers: []   # mine\nb: 1\n"},
		{"pre-existing map, no final newline", "GOOSE_MODE: auto\nextensions:\n  a:\n    cmd: x", extensions, Map, "GOOSE_MODE: auto\nextensions: {}"},
		{"comments inside stay", "mcpServers:\n  # my servers\n  - name: a\n# end\n", mcpServers, List, "mcpServers: []\n  # my servers\n# end\n"},
		{"drop-in file from an earlier run", dropInOne, mcpServers, List, dropInSkeleton},
		{"nested", "x:\n  servers:\n    a: {}\n", []string{"x", "servers"}, Map, "x:\n  servers: {}\n"},
		{"crlf", "mcpServers:\r\n- name: a\r\n", mcpServers, List, "mcpServers: []\r\n"},
	} {
		t.Run("from a file: "+tc.name, func(t *testing.T) {
			got, err := mustParse(t, tc.in).Delete(tc.path, tc.kind, "name", "a")
			if err != nil {
				t.Fatal(err)
			}
			if string(got.Bytes()) != tc.want {
				t.Fatal(diff(string(got.Bytes()), tc.want))
			}
			// Set after Delete turns the empty flow value back into a
			// block container.
			again, err := got.set(tc.path, tc.kind, "name", "a", []byte(`{"command":"x"}`))
			if err != nil {
				t.Fatal(err)
			}
			if _, found, err := again.Entries(tc.path, tc.kind, "name"); !found || err != nil {
				t.Fatalf("Entries after re-adding: %v %v\n%s", found, err, again.Bytes())
			}
		})
	}
}

// TestHostileNames round-trips names with a meaning in YAML through Set,
// Entries and Delete, in both kinds of container, in a new file and in
// existing ones.
func TestHostileNames(t *testing.T) {
	if len(hostileNames) < 40 {
		t.Fatal("want at least 40 hostile names")
	}
	for _, name := range hostileNames {
		for _, tc := range []struct {
			in    string
			path  []string
			kind  Kind
			value string
		}{
			{continueConfig, mcpServers, List, `{"command":"x","args":["` + "a: b" + `"]}`},
			{continueIndented, mcpServers, List, `{"command":"x"}`},
			{gooseWritten, extensions, Map, `{"name":"n","cmd":"x","envs":{"K":"v"}}`},
			{gooseHand, extensions, Map, `{"cmd":"x"}`},
			{"", mcpServers, List, `{"command":"x"}`},
			{"", extensions, Map, `{"cmd":"x"}`},
		} {
			d := mustParse(t, tc.in)
			nd, err := d.set(tc.path, tc.kind, "name", name, []byte(tc.value))
			if err != nil {
				t.Fatalf("%q: Set: %v", name, err)
			}
			checkSet(t, d, nd, tc.path, tc.kind, name, []byte(tc.value))
			ms, _, _ := nd.Entries(tc.path, tc.kind, "name")
			if last := ms[len(ms)-1]; last.Key != name {
				t.Fatalf("%q: last entry is %q", name, last.Key)
			}
			if !strings.Contains(string(nd.Bytes()), openMarker(name)+"\n") || !strings.Contains(string(nd.Bytes()), closeMarker(name)) {
				t.Fatalf("%q: markers missing:\n%s", name, nd.Bytes())
			}
			for _, fresh := range []bool{false, true} {
				src := nd
				if fresh {
					if tc.in == "" {
						continue // a container from an earlier run is left as []/{}
					}
					src = mustParse(t, string(nd.Bytes()))
				}
				back, err := src.Delete(tc.path, tc.kind, "name", name)
				if err != nil {
					t.Fatalf("%q: Delete: %v", name, err)
				}
				if !bytes.Equal(back.Bytes(), d.Bytes()) {
					t.Fatalf("%q: Delete did not restore the original:\n%s", name, diff(string(back.Bytes()), tc.in))
				}
			}
		}
	}
}

// TestMarkersNotRelied checks edits of managed entries whose markers a
// client removed, damaged or moved.
func TestMarkersNotRelied(t *testing.T) {
	const in = "mcpServers:\n  # >>> repo managed: other\n  - name: a\n    command: x\n  # <<< repo managed: a (edited)\n  - name: b\n"
	d := mustParse(t, in)
	nd, err := d.set(mcpServers, List, "name", "a", []byte(`{"command":"z"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "mcpServers:\n  # >>> repo managed: other\n  # >>> repo managed: a\n  - name: a\n    command: z\n  # <<< repo managed: a\n  # <<< repo managed: a (edited)\n  - name: b\n"
	if got := string(nd.Bytes()); got != want {
		t.Fatal(diff(got, want))
	}
	back, err := nd.Delete(mcpServers, List, "name", "a")
	if err != nil {
		t.Fatal(err)
	}
	want = "mcpServers:\n  # >>> repo managed: other\n  # <<< repo managed: a (edited)\n  - name: b\n"
	if got := string(back.Bytes()); got != want {
		t.Fatal(diff(got, want))
	}
}

func TestIndentationCopied(t *testing.T) {
	const v = `{"command":"x","args":["a"],"env":{"K":"v"}}`
	for _, tc := range []struct {
		name, in, want string
	}{
		{"flush list", "mcpServers:\n- name: u\n",
			"mcpServers:\n- name: u\n# >>> repo managed: srv\n- name: srv\n  command: x\n  args:\n  - a\n  env:\n    K: v\n# <<< repo managed: srv\n"},
		{"indented list", "mcpServers:\n  - name: u\n",
			"mcpServers:\n  - name: u\n  # >>> repo managed: srv\n  - name: srv\n    command: x\n    args:\n      - a\n    env:\n      K: v\n  # <<< repo managed: srv\n"},
		{"four spaces, wide items", "models:\n    -   name: m\n        roles:\n            - chat\nmcpServers:\n",
			"models:\n    -   name: m\n        roles:\n            - chat\nmcpServers:\n    # >>> repo managed: srv\n    -   name: srv\n        command: x\n        args:\n            - a\n        env:\n            K: v\n    # <<< repo managed: srv\n"},
		{"flush elsewhere in the file", "models:\n- name: m\n  roles:\n  - chat\n",
			"models:\n- name: m\n  roles:\n  - chat\nmcpServers:\n# >>> repo managed: srv\n- name: srv\n  command: x\n  args:\n  - a\n  env:\n    K: v\n# <<< repo managed: srv\n"},
		{"indented top level", "  name: x\n  mcpServers:\n",
			"  name: x\n  mcpServers:\n    # >>> repo managed: srv\n    - name: srv\n      command: x\n      args:\n        - a\n      env:\n        K: v\n    # <<< repo managed: srv\n"},
		{"indented top level, missing key", "  name: x\n",
			"  name: x\n  mcpServers:\n    # >>> repo managed: srv\n    - name: srv\n      command: x\n      args:\n        - a\n      env:\n        K: v\n    # <<< repo managed: srv\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in)
			nd, err := d.set(mcpServers, List, "name", "srv", []byte(v))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(nd.Bytes()); got != tc.want {
				t.Fatal(diff(got, tc.want))
			}
			checkSet(t, d, nd, mcpServers, List, "srv", []byte(v))
		})
	}
}

// TestKeepChompingScalar: the trailing blank lines of a "|+" scalar belong
// to it, so a new entry goes after them.
func TestKeepChompingScalar(t *testing.T) {
	const in = "mcpServers:\n- name: u\n  prompt: |+\n    keep\n\n\n# comment\nb: 1\n"
	d := mustParse(t, in)
	nd, err := d.set(mcpServers, List, "name", "srv", []byte(`{"command":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "mcpServers:\n- name: u\n  prompt: |+\n    keep\n\n\n# >>> repo managed: srv\n- name: srv\n  command: x\n# <<< repo managed: srv\n# comment\nb: 1\n"
	if got := string(nd.Bytes()); got != want {
		t.Fatal(diff(got, want))
	}
	if v := entryValue(t, nd, mcpServers, List, "u"); string(v) != `{"prompt":"keep\n\n\n"}` {
		t.Fatalf("user entry = %s", v)
	}
}

func TestAnchorUsedElsewhere(t *testing.T) {
	const in = "extensions:\n  a:\n    envs: &e {K: v}\n  b:\n    envs: *e\n"
	d := mustParse(t, in)
	var se *ShapeError
	if _, err := d.Delete(extensions, Map, "name", "a"); !errors.As(err, &se) || !strings.Contains(err.Error(), "alias *e") {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := d.set(extensions, Map, "name", "a", []byte(`{"cmd":"x"}`)); !errors.As(err, &se) {
		t.Fatalf("Set: %v", err)
	}
	// b can go: its alias goes with it.
	if _, err := d.Delete(extensions, Map, "name", "b"); err != nil {
		t.Fatal(err)
	}
}

func TestImmutable(t *testing.T) {
	d := mustParse(t, continueConfig)
	if _, err := d.set(mcpServers, List, "name", "n", []byte(`{"command":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Delete(mcpServers, List, "name", "user-db"); err != nil {
		t.Fatal(err)
	}
	if string(d.Bytes()) != continueConfig {
		t.Fatal("an edit changed the original Doc")
	}
}

// TestTrickyValues writes every hostile name as an argument, an env key and
// an env value, plus odd numbers, and reads them back.
func TestTrickyValues(t *testing.T) {
	var args, env []string
	extra := []string{"a  b", "x\\", "\\n", "'", "''", "\"", "a'b\"c", "{{x}}", "a,b", "a]b", "a}b", "50%", "x:y", "-x-", "? x", ": x", "\u2028", "\u0085", "\x00"}
	for _, s := range append(slices.Clone(hostileNames), extra...) {
		if !utf8.ValidString(s) {
			continue
		}
		js, _ := json.Marshal(s)
		args = append(args, string(js))
		env = append(env, fmt.Sprintf("%s:%s", js, js))
	}
	value := fmt.Sprintf(`{"command":"x","args":[%s],"env":{%s},"nums":[0,-0,1.5,-2e-5,1e3,12345678901234567890,18446744073709551615,0.1]}`, strings.Join(args, ","), strings.Join(env, ","))
	if !json.Valid([]byte(value)) {
		t.Fatalf("bad test value %s", value)
	}
	for _, in := range []string{continueConfig, continueIndented, dropInSkeleton, "", crlf(continueConfig)} {
		d := mustParse(t, in)
		nd, err := d.set(mcpServers, List, "name", "tricky", []byte(value))
		if err != nil {
			t.Fatalf("Set: %v", err)
		}
		checkSet(t, d, nd, mcpServers, List, "tricky", []byte(value))
		back, err := nd.Delete(mcpServers, List, "name", "tricky")
		if err != nil || !bytes.Equal(back.Bytes(), d.Bytes()) {
			t.Fatalf("Delete: %v\n%s", err, back.Bytes())
		}
	}
}

// TestReparseBlame: a syntax error in the lines before an insertion is the
// original document's (goccy/go-yaml accepted it only at the end of its
// input); one in the inserted lines is an internal error.
func TestReparseBlame(t *testing.T) {
	d := mustParse(t, "a: 1\nb: 2\n")
	_, err := d.reparse(edit{ss: []textedit.Splice{{At: d.lineEnd(2), Ins: []byte(" c: d")}}}, "test")
	var se *ShapeError
	if !errors.As(err, &se) || se.Line != 2 || !strings.Contains(se.Msg, "repo cannot add lines here") {
		t.Fatalf("error in a kept line: got %v", err)
	}
	_, err = d.reparse(d.insertion(2, []string{"c: [", "d: 1"}, []string{"c: 1"}), "test")
	if err == nil || errors.As(err, &se) || !strings.Contains(err.Error(), "internal error") {
		t.Fatalf("error in an inserted line: got %v", err)
	}
	// The place is at fault when neutral lines fail there too.
	odd := mustParse(t, "0:\n0\n -")
	_, err = odd.reparse(odd.insertion(3, []string{"c: 1"}, []string{"z: 1"}), "test")
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "repo cannot add lines after line 3") {
		t.Fatalf("error at an unusable place: got %v", err)
	}
}
