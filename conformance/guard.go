//go:build linux && repodev

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Some clients write into the project they are started in (Qwen adds "$version" to its settings,
// OpenCode adds "$schema" and .opencode/.gitignore). A snapshot of the project before each
// client runs lets the harness report such rewrites and put the original bytes back.

// skipDirs are not snapshotted: venvs, caches, VCS data.
var skipDirs = map[string]bool{".venv": true, "__pycache__": true, "node_modules": true, ".git": true}

type fileState struct {
	data []byte
	mode fs.FileMode
}

type snapshot struct {
	root  string
	files map[string]fileState
	dirs  map[string]bool
}

func takeSnapshot(root string) (*snapshot, error) {
	s := &snapshot{root: root, files: map[string]fileState{}, dirs: map[string]bool{}}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			s.dirs[rel] = true
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 4<<20 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s.files[rel] = fileState{b, info.Mode().Perm()}
		return nil
	})
	return s, err
}

// Change is one file a client created, changed or deleted in the project.
type Change struct {
	Client, Scope string
	Path          string
	Kind          string   // created, modified, deleted
	Lines         []string // what changed: JSON members, else "+ line" / "- line"
	RepoCheck     string   // what RepoCmd said about the rewritten file
	RepoCmd       string   // the repo sync --check that was run
}

func (c Change) String() string {
	s := fmt.Sprintf("%s (%s check) %s %s", c.Client, c.Scope, c.Kind, c.Path)
	if len(c.Lines) > 0 {
		s += ": " + strings.Join(c.Lines, "; ")
	}
	return s
}

// diff compares the project now with the snapshot.
func (s *snapshot) diff() ([]Change, error) {
	now, err := takeSnapshot(s.root)
	if err != nil {
		return nil, err
	}
	var out []Change
	for rel, before := range s.files {
		after, ok := now.files[rel]
		switch {
		case !ok:
			out = append(out, Change{Path: rel, Kind: "deleted"})
		case !bytes.Equal(before.data, after.data):
			out = append(out, Change{Path: rel, Kind: "modified", Lines: describe(rel, before.data, after.data)})
		}
	}
	for rel, after := range now.files {
		if _, ok := s.files[rel]; !ok {
			out = append(out, Change{Path: rel, Kind: "created", Lines: lineDiff("", string(after.data), 4)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// restore puts every snapshotted file back, removes created files and folders.
func (s *snapshot) restore() error {
	now, err := takeSnapshot(s.root)
	if err != nil {
		return err
	}
	var errs []string
	for rel, st := range s.files {
		if cur, ok := now.files[rel]; ok && bytes.Equal(cur.data, st.data) {
			continue
		}
		p := filepath.Join(s.root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if err := os.WriteFile(p, st.data, st.mode); err != nil {
			errs = append(errs, err.Error())
		}
		_ = os.Chmod(p, st.mode)
	}
	for rel := range now.files {
		if _, ok := s.files[rel]; !ok {
			if err := os.Remove(filepath.Join(s.root, rel)); err != nil {
				errs = append(errs, err.Error())
			}
		}
	}
	var created []string
	for rel := range now.dirs {
		if !s.dirs[rel] {
			created = append(created, rel)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(created))) // children before parents
	for _, rel := range created {
		if err := os.Remove(filepath.Join(s.root, rel)); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("restoring the project: %s", strings.Join(errs, "; "))
	}
	return nil
}

// lineDiff lists the lines removed ("- …") and added ("+ …") between a and b (LCS on lines),
// at most limit of them.
func lineDiff(a, b string, limit int) []string {
	x, y := splitLines(a), splitLines(b)
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	add := func(s string) {
		if len(out) < limit {
			out = append(out, s)
		} else if len(out) == limit {
			out = append(out, "…")
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			add("- " + strings.TrimSpace(x[i]))
			i++
		default:
			add("+ " + strings.TrimSpace(y[j]))
			j++
		}
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// describe summarises how a file changed: for JSON(C) files that still parse, which members were
// added, removed or changed, and whether the rest was only reformatted; otherwise a line diff.
func describe(path string, before, after []byte) []string {
	if ext := filepath.Ext(path); ext == ".json" || ext == ".jsonc" {
		var a, b any
		if json.Unmarshal(stripJSONC(before), &a) == nil && json.Unmarshal(stripJSONC(after), &b) == nil {
			var out []string
			jsonDiff("", a, b, &out)
			if len(out) == 0 {
				return []string{"reformatted, same content"}
			}
			if len(out) > 12 {
				out = append(out[:12], "…")
			}
			if reformatted(before, after) {
				out = append(out, "reformatted")
			}
			return out
		}
	}
	return lineDiff(string(before), string(after), 8)
}

func jsonDiff(path string, a, b any, out *[]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, "changed "+orRoot(path)+" to "+short(b))
		}
		return
	}
	var keys []string
	for k := range am {
		keys = append(keys, k)
	}
	for k := range bm {
		if _, ok := am[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := path + "." + strconv.Quote(k)
		av, ina := am[k]
		bv, inb := bm[k]
		switch {
		case !ina:
			if v := short(bv); len(v) <= 24 {
				*out = append(*out, "added "+p[1:]+": "+v)
			} else {
				*out = append(*out, "added "+p[1:])
			}
		case !inb:
			*out = append(*out, "removed "+p[1:])
		default:
			jsonDiff(p, av, bv, out)
		}
	}
}

func orRoot(p string) string {
	if p == "" {
		return "the document"
	}
	return p[1:]
}

func short(v any) string {
	b, _ := json.Marshal(v)
	return oneLine(string(b), 60)
}

// stripJSONC removes // and /* */ comments and trailing commas outside strings.
func stripJSONC(src []byte) []byte {
	var out []byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) {
				j = len(src) - 1
			}
			out = append(out, src[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := bytes.Index(src[i+2:], []byte("*/"))
			if end < 0 {
				return out
			}
			i += end + 3
		case c == ',':
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
				j++
			}
			if j < len(src) && (src[j] == '}' || src[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return bytes.TrimPrefix(out, []byte("\xef\xbb\xbf"))
}

// reformatted: a line of before is gone from after (other than by a comma added at its end).
func reformatted(before, after []byte) bool {
	have := map[string]bool{}
	for _, ln := range splitLines(string(after)) {
		have[strings.TrimSuffix(strings.TrimSpace(ln), ",")] = true
	}
	for _, ln := range splitLines(string(before)) {
		if !have[strings.TrimSuffix(strings.TrimSpace(ln), ",")] {
			return true
		}
	}
	return false
}
