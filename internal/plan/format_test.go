package plan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/internal/tomledit"
)

// TestTOMLBatchEqualsEach: the TOML document's Write (of new entries, then
// of new values) and Delete of many, which a sync uses, write the bytes of
// the entry-by-entry path (writeEach, Delete of each in turn) into Codex
// files as users have them.
func TestTOMLBatchEqualsEach(t *testing.T) {
	user := "# Codex\r\nmodel = \"gpt-5-codex\"\r\n\r\n[projects.\"/home/u/w\"]\r\ntrust_level = \"trusted\"\r\n\r\n" +
		"# mine\r\n[mcp_servers.docs]\r\nurl = \"https://docs\"\r\n\r\n[mcp_servers.docs.tools.search]\r\napproval_mode = \"approve\"\r\n\r\n" +
		"[features]\r\nweb_search_request = true"
	key := []string{"mcp_servers"}
	entry := func(i, round int) target.Desired {
		v := ordered.Object{{Key: "command", Value: "node"}, {Key: "args", Value: []string{fmt.Sprintf("s%d.js", round)}}}
		if i%2 == 0 {
			v = append(v, ordered.Member{Key: "env", Value: ordered.Object{{Key: "ROOT", Value: "/w"}}})
		}
		return target.Desired{Name: fmt.Sprintf("srv-%03d", i), Value: v}
	}
	for _, text := range []string{"", user, strings.ReplaceAll(user, "\r\n", "\n")} {
		var adds, updates []target.Desired
		var names []string
		for i := range 40 {
			adds = append(adds, entry(i, 1))
			updates = append(updates, entry(i, 2))
			names = append(names, entry(i, 0).Name)
		}
		doc := func() Document {
			if text == "" {
				return tomledit.Format{}.New()
			}
			d, err := tomledit.Format{}.Parse([]byte(text))
			if err != nil {
				t.Fatal(err)
			}
			return d
		}()
		batch, err := doc.Write(key, nil, editorEntries(adds))
		if err != nil {
			t.Fatal(err)
		}
		each, err := writeEach(doc, key, adds)
		if err != nil {
			t.Fatal(err)
		}
		sameBytes(t, "Insert", batch, each)

		batch2, err := batch.Write(key, editorEntries(updates), nil)
		if err != nil {
			t.Fatal(err)
		}
		each2, err := writeEach(batch, key, updates)
		if err != nil {
			t.Fatal(err)
		}
		sameBytes(t, "Replace", batch2, each2)

		gone := append([]string{"docs"}, names[5:]...)
		batch3, err := batch2.Delete(key, gone)
		if err != nil {
			t.Fatal(err)
		}
		each3 := batch2
		for _, n := range gone {
			if each3, err = each3.Delete(key, []string{n}); err != nil {
				t.Fatal(err)
			}
		}
		sameBytes(t, "DeleteAll", batch3, each3)
	}
}

// writeEach writes entries one Write at a time: as an update when the
// document has the entry, else as an addition.
func writeEach(doc Document, key []string, entries []target.Desired) (Document, error) {
	for _, e := range entries {
		members, _, err := doc.Entries(key)
		if err != nil {
			return nil, err
		}
		one := editorEntries([]target.Desired{e})
		if slices.ContainsFunc(members, func(m Member) bool { return m.Key == e.Name }) {
			doc, err = doc.Write(key, one, nil)
		} else {
			doc, err = doc.Write(key, nil, one)
		}
		if err != nil {
			return nil, fmt.Errorf("writing entry %q: %w", e.Name, err)
		}
	}
	return doc, nil
}

func sameBytes(t *testing.T, what string, got, want Document) {
	t.Helper()
	if string(got.Bytes()) != string(want.Bytes()) {
		t.Fatalf("%s: the batch edit gave\n%s\nentry by entry gave\n%s", what, got.Bytes(), want.Bytes())
	}
}

// TestTOMLDeleteAllRefusal: a server a client rewrote as dotted keys cannot
// be removed; the error says which, and where.
func TestTOMLDeleteAllRefusal(t *testing.T) {
	d, err := tomledit.Format{}.Parse([]byte("model = \"o3\"\nmcp_servers.b.command = \"b\"\n\n[mcp_servers.a]\ncommand = \"a\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Delete([]string{"mcp_servers"}, []string{"a", "b"})
	if l, _ := position(err); l != 2 || !strings.Contains(fmt.Sprint(err), `server "b" is written as dotted keys`) {
		t.Fatalf("got %v (line %d)", err, l)
	}
}
