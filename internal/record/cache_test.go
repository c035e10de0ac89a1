package record

import (
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
)

// A record served from the cache is what parsing its bytes gives, and
// the caller's own: changing it changes neither the cache nor a later
// read. Bytes that changed are parsed again; a damaged record fails on
// every read, as without the cache.
func TestCacheReadsAsRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp-managed.json")
	r := &Record{Version: LatestVersion}
	r.Put(".mcp.json", []string{"mcpServers"}, map[string]Owned{"s": {Extension: "ext", Digest: "d1", Defaults: map[string]string{"env": "d2"}}})
	r.SetCreated(".mcp.json", []string{"mcpServers"}, &Created{File: true, Folders: 1})
	if err := os.WriteFile(path, r.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want, _, err := Read(path, "rec")
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache()
	first, _, err := c.Read(path, "rec")
	if err != nil {
		t.Fatal(err)
	}
	first.Targets[0].Entries["s"].Defaults["env"] = "changed"
	first.Targets[0].Key[0] = "changed"
	first.Put("other.json", []string{"x"}, map[string]Owned{"t": {Digest: "d"}})
	second, raw, err := c.Read(path, "rec")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(second, want) || raw == nil {
		t.Fatalf("the cached record is %+v, want %+v", second, want)
	}
	if reads, parses := c.Counts(path); reads != 2 || parses != 1 {
		t.Fatalf("reads %d, parses %d; want 2, 1", reads, parses)
	}

	r.Put(".mcp.json", []string{"mcpServers"}, nil)
	if err := os.WriteFile(path, r.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	third, _, err := c.Read(path, "rec")
	if err != nil {
		t.Fatal(err)
	}
	if len(third.Targets) != 0 {
		t.Fatalf("a rewritten record is served as it was: %+v", third)
	}
	if err := os.WriteFile(path, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := c.Read(path, "rec"); err == nil {
			t.Fatal("a damaged record read without an error")
		}
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if rec, raw, err := c.Read(path, "rec"); err != nil || raw != nil || len(rec.Targets) != 0 {
		t.Fatalf("a missing record: %+v, %q, %v; want an empty one", rec, raw, err)
	}
}

// Steps of a run that read one record at the same moment take turns: the
// record is parsed once, and each gets its own copy.
func TestCacheConcurrentReadsParseOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp-managed.json")
	r := &Record{Version: LatestVersion}
	for i := range 50 {
		r.Put(".mcp.json", []string{"mcpServers", string(rune('a' + i%26))}, map[string]Owned{"s": {Extension: "ext", Digest: "d"}})
	}
	if err := os.WriteFile(path, r.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for round := range 20 {
		c := NewCache()
		const readers = 8
		got := make([]*Record, readers)
		var wg sync.WaitGroup
		for i := range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec, _, err := c.Read(path, "rec")
				if err != nil {
					t.Error(err)
				}
				got[i] = rec
			}()
		}
		wg.Wait()
		if reads, parses := c.Counts(path); reads != readers || parses != 1 {
			t.Fatalf("round %d: reads %d, parses %d; want %d, 1", round, reads, parses, readers)
		}
		for i := 1; i < readers; i++ {
			if got[i] == got[0] || !reflect.DeepEqual(got[i], got[0]) {
				t.Fatalf("round %d: reader %d got %p %+v, reader 0 %p %+v: want equal copies", round, i, got[i], got[i], got[0], got[0])
			}
		}
	}
}
