package record

import (
	"bytes"
	"fmt"
	"testing"
)

// benchRecord is a record of n entries, ten to a target, with every kind
// of member a record holds.
func benchRecord(n int) *Record {
	r := &Record{Version: LatestVersion, Root: "/home/me/work/ws <&>"}
	var t *Entry
	for i := range n {
		if i%10 == 0 {
			t = &Entry{File: fmt.Sprintf(".tool%d/mcp.json", i/10), Key: []string{"projects", "/home/me/work/ws", "mcpServers"}, Entries: map[string]Owned{}}
			if i%20 == 0 {
				t.Created = &Created{File: true, Folders: 1, Key: []string{"mcpServers"}}
			}
			r.Targets = append(r.Targets, t)
		}
		o := Owned{Extension: "ext", Digest: fmt.Sprintf("sha256:%032x", i)}
		if i%3 == 0 {
			o.Previous = fmt.Sprintf("sha256:%032x", i+1)
			o.Defaults = map[string]string{"alwaysAllow": "sha256:0123", "disabled": "sha256:4567"}
		}
		t.Entries[fmt.Sprintf("server-%d \u2028 é", i)] = o
	}
	return r
}

// TestBenchRecordAsEncodingJSON: the benchmark's record, too, is written
// as encoding/json writes it.
func TestBenchRecordAsEncodingJSON(t *testing.T) {
	r := benchRecord(45)
	if got, want := r.Bytes(), encodeRecord(r); !bytes.Equal(got, want) {
		t.Errorf("Bytes\n%s\nencoding/json\n%s", got, want)
	}
}

// BenchmarkRecordBytes: the hand-written encoder against encoding/json, at
// the sizes records have (a team's project record: tens of entries; a
// heavy user's per-user record: thousands).
func BenchmarkRecordBytes(b *testing.B) {
	for _, n := range []int{20, 2000, 20000} {
		r := benchRecord(n)
		b.Run(fmt.Sprintf("hand/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = r.Bytes()
			}
		})
		b.Run(fmt.Sprintf("encoding_json/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = encodeRecord(r)
			}
		})
	}
}

// BenchmarkParseRecord: reading a record as Bytes writes it, at the sizes
// records have (the example workspace's two hold 11 targets of 5 entries;
// a heavy user's per-user record thousands of entries).
func BenchmarkParseRecord(b *testing.B) {
	for _, n := range []int{55, 2000} {
		data := benchRecord(n).Bytes()
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse(data, "bench"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
