package editortest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/editor"
)

// Sizes are the entry counts of Bench: those of the targets (1,000,
// 2,000 and 10,000), or the comma-separated list in
// REPO_BENCH_EDITOR_SIZES.
func Sizes() []int {
	v := os.Getenv("REPO_BENCH_EDITOR_SIZES")
	if v == "" {
		return []int{1000, 2000, 10000}
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			panic("REPO_BENCH_EDITOR_SIZES: " + v)
		}
		out = append(out, n)
	}
	return out
}

// Bench times the batch edits of a sync of N entries through the contract:
// the first sync into a new file (insert/new) and into a user's file
// (insert/user), a new value for every entry (replace), and their removal
// (delete, the folder of extensions emptied), each one edit of the whole
// file. ns/entry stays flat across N when an edit is linear.
func Bench(b *testing.B, f editor.Format, user []byte, key []string) {
	for _, n := range Sizes() {
		v1, v2 := make([]editor.Entry, n), make([]editor.Entry, n)
		names := make([]string, n)
		for i := range n {
			names[i] = fmt.Sprintf("srv-%05d", i)
			v1[i] = editor.Entry{Name: names[i], Value: Value(i, "v1")}
			v2[i] = editor.Entry{Name: names[i], Value: Value(i, "v2")}
		}
		base, err := f.Parse(user)
		if err != nil {
			b.Fatal(err)
		}
		synced, err := base.Write(key, nil, v1)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			edit func() (editor.Doc, error)
		}{
			{"insert/new", func() (editor.Doc, error) { return f.New().Write(key, nil, v1) }},
			{"insert/user", func() (editor.Doc, error) { return base.Write(key, nil, v1) }},
			{"replace", func() (editor.Doc, error) { return synced.Write(key, v2, nil) }},
			{"delete", func() (editor.Doc, error) { return synced.Delete(key, names) }},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.edit(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
			})
		}
	}
}
