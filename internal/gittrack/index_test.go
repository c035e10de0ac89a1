package gittrack

import (
	"encoding/binary"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/repo-manager/repo/internal/bigmem"
)

// indexQuestions are the pathspecs TestIndexAsGit asks about: files,
// folders, the name of a file as a folder, names that are prefixes of
// others, names a glob would read otherwise, links and submodules, and
// paths that are not there.
var indexQuestions = []string{".cursor/mcp.json", ".cursor", ".repository", ".repository/mcp-managed.json",
	"a[1].json", "a1.json", "a", "docs", "doc", "docs/x.md/y", "dir/sub", "dir/sub/deep.txt", "dir/s",
	"link", "link/f", "real", "sub", "sub/x", "f", "new.txt", "missing/x", "with space.json", "ünï.json",
	longName}

// longName is longer than the 4,095 bytes an index entry's flags can say.
var longName = strings.Repeat(strings.Repeat("n", 200)+"/", 24) + "long.txt"

// indexRepo is a work tree with something of every kind git's index holds.
func indexRepo(t *testing.T, top string) {
	t.Helper()
	git(t, top, "init", "-q")
	for _, f := range []string{".cursor/mcp.json", ".repository/mcp-managed.json", "a[1].json", "docs/x.md",
		"dir/sub/deep.txt", "real/f", "with space.json", "ünï.json", "f"} {
		write(t, filepath.Join(top, f))
	}
	if err := os.Symlink("real", filepath.Join(top, "link")); err != nil {
		t.Fatal(err)
	}
	git(t, top, "add", "-A")
	blob := gitOut(t, top, "hash-object", "-w", filepath.Join(top, "f"))
	git(t, top, "update-index", "--add", "--cacheinfo", "100644,"+blob+","+longName)
	git(t, top, "commit", "-qm", "first")
	git(t, top, "update-index", "--add", "--cacheinfo", "160000,"+gitOut(t, top, "rev-parse", "HEAD")+",sub")
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gitCmd(dir, args...).Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out))
}

// TestIndexAsGit: where repo reads the index file itself, it lists what
// `git ls-files` lists, for every shape of index git writes that it
// reads; every other shape, layout, configuration and environment is left
// to git, whose answer (or error) listed then gives.
func TestIndexAsGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, top string) // after indexRepo unless bare
		bare  bool                           // no indexRepo: the setup makes the repository
		read  bool                           // repo reads the index itself
	}{
		{name: "version 2, with the tree cache", read: true},
		{name: "version 3: skip-worktree and intent-to-add", read: true, setup: func(t *testing.T, top string) {
			git(t, top, "update-index", "--skip-worktree", "docs/x.md")
			write(t, filepath.Join(top, "new.txt"))
			git(t, top, "add", "-N", "new.txt")
		}},
		{name: "version 4", read: true, setup: func(t *testing.T, top string) {
			git(t, top, "update-index", "--index-version", "4")
		}},
		{name: "version 4 with version 3's flags", read: true, setup: func(t *testing.T, top string) {
			git(t, top, "update-index", "--index-version", "4")
			git(t, top, "update-index", "--skip-worktree", "dir/sub/deep.txt")
		}},
		{name: "a conflict's three stages", read: true, setup: func(t *testing.T, top string) {
			git(t, top, "update-index", "--force-remove", "sub")
			git(t, top, "checkout", "-qb", "other")
			writeText(t, filepath.Join(top, "f"), "other\n")
			git(t, top, "commit", "-qam", "other")
			git(t, top, "checkout", "-q", "-")
			writeText(t, filepath.Join(top, "f"), "mine\n")
			git(t, top, "commit", "-qam", "mine")
			cmd := exec.Command("git", "merge", "-q", "other")
			cmd.Dir = top
			cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
			if cmd.Run() == nil {
				t.Fatal("the merge did not conflict")
			}
			if s := gitOut(t, top, "ls-files", "-s", "f"); strings.Count(s, "\n") != 2 {
				t.Fatalf("want three stages of f, have:\n%s", s)
			}
		}},
		{name: "untracked cache and end-of-entries extensions", read: true, setup: func(t *testing.T, top string) {
			git(t, top, "-c", "index.recordEndOfIndexEntries=true", "-c", "index.recordOffsetTable=true", "-c", "index.threads=2",
				"update-index", "--untracked-cache", "--force-write-index")
			git(t, top, "status", "--porcelain")
		}},
		{name: "an index large enough to be mapped", read: true, setup: func(t *testing.T, top string) {
			blob := gitOut(t, top, "hash-object", "-w", filepath.Join(top, "f"))
			var info strings.Builder
			for i := range 16000 {
				fmt.Fprintf(&info, "100644 %s\tdocs/generated/%05d-%s.md\n", blob, i, strings.Repeat("x", 64))
			}
			cmd := exec.Command("git", "update-index", "--index-info")
			cmd.Dir, cmd.Stdin = top, strings.NewReader(info.String())
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git update-index --index-info: %v\n%s", err, out)
			}
			if fi, err := os.Stat(filepath.Join(top, ".git", "index")); err != nil || fi.Size() < bigmem.MapThreshold {
				t.Fatalf("the index is not large enough to be mapped: %v, %v", fi, err)
			}
		}},
		{name: "no index yet", bare: true, read: true, setup: func(t *testing.T, top string) {
			git(t, top, "init", "-q")
		}},
		{name: "GIT_INDEX_FILE, relative to the top", read: true, setup: func(t *testing.T, top string) {
			t.Setenv("GIT_INDEX_FILE", filepath.Join(".git", "next-index.lock"))
			git(t, top, "read-tree", "HEAD")
			git(t, top, "rm", "-q", "--cached", "docs/x.md")
		}},
		{name: "GIT_INDEX_FILE, absolute", read: true, setup: func(t *testing.T, top string) {
			t.Setenv("GIT_INDEX_FILE", filepath.Join(top, ".git", "index.lock"))
			git(t, top, "read-tree", "HEAD")
		}},
		{name: "GIT_INDEX_FILE that is not there", read: true, setup: func(t *testing.T, top string) {
			t.Setenv("GIT_INDEX_FILE", filepath.Join(top, ".git", "none"))
		}},
		{name: "a .git folder that is not a repository, in one", setup: func(t *testing.T, top string) {
			inner := filepath.Join(top, "docs")
			index, err := os.ReadFile(filepath.Join(top, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(inner, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeText(t, filepath.Join(inner, ".git", "index"), string(index))
			if _, read := fromIndex(inner, indexQuestions); read {
				t.Fatal("fromIndex read the index of a .git folder git passes over")
			}
			listedAsGit(t, inner, indexQuestions)
		}, read: true},
		{name: "a .git that is a symbolic link", setup: func(t *testing.T, top string) {
			moved := filepath.Join(t.TempDir(), "git")
			if err := os.Rename(filepath.Join(top, ".git"), moved); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(moved, filepath.Join(top, ".git")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a detached HEAD", read: true, setup: func(t *testing.T, top string) {
			git(t, top, "checkout", "-q", "--detach")
		}},
		{name: "a HEAD git does not take", setup: func(t *testing.T, top string) {
			writeText(t, filepath.Join(top, ".git", "HEAD"), "not a ref\n")
		}},
		{name: "a split index", setup: func(t *testing.T, top string) {
			git(t, top, "update-index", "--split-index")
		}},
		{name: "a sparse index", setup: func(t *testing.T, top string) {
			git(t, top, "update-index", "--force-remove", "sub")
			git(t, top, "sparse-checkout", "set", "--cone", "docs")
			git(t, top, "config", "index.sparse", "true")
			git(t, top, "sparse-checkout", "reapply")
			if !strings.Contains(gitOut(t, top, "ls-files", "--sparse"), "dir/\n") {
				t.Skip("this git writes no sparse index")
			}
		}},
		{name: "a SHA-256 repository", bare: true, setup: func(t *testing.T, top string) {
			git(t, top, "init", "-q", "--object-format=sha256")
			write(t, filepath.Join(top, "docs/x.md"))
			git(t, top, "add", "-A")
		}},
		{name: "core.worktree", setup: func(t *testing.T, top string) {
			git(t, top, "config", "core.worktree", top)
		}},
		{name: "an include", setup: func(t *testing.T, top string) {
			git(t, top, "config", "include.path", filepath.Join(top, "none"))
		}},
		{name: "an [extensions] section", setup: func(t *testing.T, top string) {
			git(t, top, "config", "core.repositoryformatversion", "1")
			git(t, top, "config", "extensions.worktreeConfig", "true")
		}},
		{name: "a bare repository's configuration", setup: func(t *testing.T, top string) {
			git(t, top, "config", "core.bare", "true")
		}},
		{name: "a format version git does not know", setup: func(t *testing.T, top string) {
			git(t, top, "config", "core.repositoryformatversion", "2")
		}},
		{name: "a setting on its section's line", setup: func(t *testing.T, top string) {
			appendConfig(t, top, "[core] bare = true\n")
		}},
		{name: "a value that is not plainly false", setup: func(t *testing.T, top string) {
			appendConfig(t, top, "[core]\n\tbare = \"false\"\n")
		}},
		{name: "a git test switch", setup: func(t *testing.T, top string) {
			t.Setenv("GIT_TEST_SPLIT_INDEX", "1")
		}},
		{name: "GIT_INDEX_FILE set empty", setup: func(t *testing.T, top string) {
			t.Setenv("GIT_INDEX_FILE", "")
		}},
		{name: "GIT_DIR", read: true, setup: func(t *testing.T, top string) {
			t.Setenv("GIT_DIR", filepath.Join(top, ".git"))
		}},
		{name: "GIT_DIR, relative to the top", read: true, setup: func(t *testing.T, top string) {
			t.Setenv("GIT_DIR", ".git")
		}},
		{name: "GIT_DIR naming no repository", setup: func(t *testing.T, top string) {
			t.Setenv("GIT_DIR", filepath.Join(top, "docs"))
		}},
		{name: "GIT_WORK_TREE", setup: func(t *testing.T, top string) {
			t.Setenv("GIT_WORK_TREE", top)
		}},
		{name: "GIT_COMMON_DIR", setup: func(t *testing.T, top string) {
			t.Setenv("GIT_COMMON_DIR", filepath.Join(top, ".git"))
		}},
		{name: "case-insensitive pathspecs", setup: func(t *testing.T, top string) {
			t.Setenv("GIT_ICASE_PATHSPECS", "1")
		}},
		{name: "a worktree's core.worktree in -c", setup: func(t *testing.T, top string) {
			t.Setenv("GIT_CONFIG_PARAMETERS", "'core.worktree'='"+top+"'")
		}},
		{name: "a version this reading does not know", setup: func(t *testing.T, top string) {
			patchIndex(t, top, func(b []byte) []byte { binary.BigEndian.PutUint32(b[4:], 5); return b })
		}},
		{name: "a folder entry, as a sparse index has", setup: func(t *testing.T, top string) {
			patchIndex(t, top, func(b []byte) []byte { binary.BigEndian.PutUint32(b[12+24:], 0o040000); return b })
		}},
		{name: "an index cut short", setup: func(t *testing.T, top string) {
			patchIndex(t, top, func(b []byte) []byte { return b[:len(b)/2] })
		}},
		{name: "an extension git must understand", setup: func(t *testing.T, top string) {
			patchIndex(t, top, func(b []byte) []byte {
				body := slices.Clone(b[:len(b)-hashSize])
				body = append(body, "zzzz\x00\x00\x00\x00"...)
				return append(body, b[len(b)-hashSize:]...)
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			if !tc.bare {
				indexRepo(t, top)
			}
			if tc.setup != nil {
				tc.setup(t, top)
			}
			for _, rels := range [][]string{indexQuestions, {"."}} {
				names, read := fromIndex(top, rels)
				if read != tc.read {
					t.Fatalf("fromIndex read the index: %v, want %v", read, tc.read)
				}
				want, _ := listedAsGit(t, top, rels)
				if read && !maps.Equal(names, want) {
					t.Errorf("the index lists %v\ngit lists %v", slices.Sorted(maps.Keys(names)), slices.Sorted(maps.Keys(want)))
				}
			}
		})
	}
}

// TestIndexLeftToGitOfAnotherOwner: git refuses a repository whose top,
// .git or repository folders another user owns (unless safe.directory says
// otherwise): repo leaves each to git, whatever git then says — in a plain
// repository, in a linked worktree (its .git file, its own folder, the
// common one) and through GIT_DIR.
func TestIndexLeftToGitOfAnotherOwner(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if os.Geteuid() != 0 {
		t.Skip("giving a folder to another user needs root")
	}
	for _, tc := range []struct {
		name     string
		worktree bool
		owned    func(top, wt, gitDir string) string // what another user owns
		gitDir   bool                                // GIT_DIR set
	}{
		{name: "the top", owned: func(top, _, _ string) string { return top }},
		{name: ".git", owned: func(top, _, _ string) string { return filepath.Join(top, ".git") }},
		{name: "GIT_DIR's folder", gitDir: true, owned: func(top, _, _ string) string { return filepath.Join(top, ".git") }},
		{name: "a worktree's .git file", worktree: true, owned: func(_, wt, _ string) string { return filepath.Join(wt, ".git") }},
		{name: "a worktree's own folder", worktree: true, owned: func(_, _, gitDir string) string { return gitDir }},
		{name: "a worktree's common folder", worktree: true, owned: func(top, _, _ string) string { return filepath.Join(top, ".git") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			git(t, top, "init", "-q")
			write(t, filepath.Join(top, "docs", "x.md"))
			git(t, top, "add", "-A")
			git(t, top, "commit", "-qm", "first")
			work := top
			if tc.worktree {
				work = filepath.Join(t.TempDir(), "wt")
				git(t, top, "worktree", "add", "-q", work)
			}
			gitDir := gitOut(t, work, "rev-parse", "--absolute-git-dir")
			if _, read := fromIndex(work, indexQuestions); !read {
				t.Fatal("fromIndex left the repository to git before its owner changed")
			}
			if tc.gitDir {
				t.Setenv("GIT_DIR", gitDir)
			}
			if err := os.Chown(tc.owned(top, work, gitDir), 4242, 4242); err != nil {
				t.Fatal(err)
			}
			if _, read := fromIndex(work, indexQuestions); read {
				t.Fatal("fromIndex read the index of a repository another user owns")
			}
			listedAsGit(t, work, indexQuestions)
		})
	}
}

// TestIndexInAWorktree: a linked worktree's .git is a file naming its own
// folder in the repository, which holds its index and HEAD, and whose
// commondir names the folder holding the rest. Its index is read as git
// reads it — as a hook there sees it too (GIT_DIR and GIT_INDEX_FILE set)
// —, and a .git file or commondir that is not as git writes it is left to
// git.
func TestIndexInAWorktree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top := t.TempDir()
	git(t, top, "init", "-q")
	write(t, filepath.Join(top, "docs", "x.md"))
	git(t, top, "add", "-A")
	git(t, top, "commit", "-qm", "first")
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, top, "worktree", "add", "-q", wt)
	write(t, filepath.Join(wt, ".cursor", "mcp.json"))
	git(t, wt, "add", ".cursor")
	gitDir := gitOut(t, wt, "rev-parse", "--absolute-git-dir")
	same := func(t *testing.T, read bool) {
		t.Helper()
		if _, got := fromIndex(wt, indexQuestions); got != read {
			t.Fatalf("fromIndex read the index: %v, want %v", got, read)
		}
		got, err := listedAsGit(t, wt, indexQuestions)
		if err == nil && (!got["docs/x.md"] || !got[".cursor/mcp.json"]) {
			t.Fatalf("listed %v, want docs/x.md and the worktree's own .cursor/mcp.json", got)
		}
	}
	t.Run("the .git file", func(t *testing.T) { same(t, true) })
	t.Run("a hook's GIT_DIR and GIT_INDEX_FILE", func(t *testing.T) {
		t.Setenv("GIT_DIR", gitDir)
		t.Setenv("GIT_INDEX_FILE", filepath.Join(gitDir, "index"))
		same(t, true)
	})
	t.Run("a commondir naming no folder", func(t *testing.T) {
		replaceFor(t, filepath.Join(gitDir, "commondir"), "../../none\n")
		if _, read := fromIndex(wt, indexQuestions); read {
			t.Fatal("fromIndex read a worktree whose commondir names no folder")
		}
	})
	t.Run("a .git file that is not git's", func(t *testing.T) {
		replaceFor(t, filepath.Join(wt, ".git"), "gitdir "+gitDir+"\n")
		same(t, false)
	})
}

// listedAsGit checks that listed gives, for rels in top, what git itself
// lists, or git's error, and returns it.
func listedAsGit(t *testing.T, top string, rels []string) (map[string]bool, error) {
	t.Helper()
	got, err := listed(top, rels)
	want, wantErr := askGit(top, rels)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("listed: %v, git: %v", err, wantErr)
	}
	if !maps.Equal(got, want) {
		t.Fatalf("listed %v\ngit lists %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	return got, err
}

// replaceFor gives the file at path the text for the rest of the test.
func replaceFor(t *testing.T, path, text string) {
	t.Helper()
	was, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { writeText(t, path, string(was)) })
	writeText(t, path, text)
}

// appendConfig adds text to top's repository configuration.
func appendConfig(t *testing.T, top, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(top, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// patchIndex rewrites top's index file with edit.
func patchIndex(t *testing.T, top string, edit func([]byte) []byte) {
	t.Helper()
	path := filepath.Join(top, ".git", "index")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, edit(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzIndexNames: whatever an index file holds, reading it neither
// panics nor lists a name the question does not cover.
func FuzzIndexNames(f *testing.F) {
	top := f.TempDir()
	cmd := exec.Command("git", "init", "-q")
	cmd.Dir = top
	if cmd.Run() == nil {
		for _, name := range []string{"a.json", "docs/x.md", "docs/y/z.md"} {
			p := filepath.Join(top, name)
			_ = os.MkdirAll(filepath.Dir(p), 0o755)
			_ = os.WriteFile(p, []byte("x"), 0o644)
		}
		add := exec.Command("git", "add", "-A")
		add.Dir = top
		if add.Run() == nil {
			for _, v := range []string{"2", "3", "4"} {
				up := exec.Command("git", "update-index", "--index-version", v)
				up.Dir = top
				if up.Run() == nil {
					if b, err := os.ReadFile(filepath.Join(top, ".git", "index")); err == nil {
						f.Add(b)
					}
				}
			}
		}
	}
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + strings.Repeat("\x00", hashSize)))
	specs := newSpecSet([]string{"docs", "a.json"})
	f.Fuzz(func(t *testing.T, data []byte) {
		names, ok := indexNames(data, specs)
		if !ok {
			return
		}
		for name := range names {
			if !specs.lists([]byte(name)) {
				t.Fatalf("listed %q, which the question does not cover", name)
			}
		}
	})
}

// indexFile builds an index of version with the given entries (already
// encoded), extensions and a zero checksum.
func indexFile(version, count uint32, body ...[]byte) []byte {
	b := []byte("DIRC")
	b = binary.BigEndian.AppendUint32(b, version)
	b = binary.BigEndian.AppendUint32(b, count)
	for _, part := range body {
		b = append(b, part...)
	}
	return append(b, make([]byte, hashSize)...)
}

// entry encodes an index entry of a regular file: version 2's and 3's
// padded layout, or version 4's with strip bytes of the name before.
func entry(version int, name string, strip int, extended bool) []byte {
	b := make([]byte, 40+hashSize+2)
	binary.BigEndian.PutUint32(b[24:], 0o100644)
	flags := uint16(min(len(name), 0xfff))
	if extended {
		flags |= 0x4000
	}
	binary.BigEndian.PutUint16(b[40+hashSize:], flags)
	if extended {
		b = append(b, 0, 0)
	}
	if version == 4 {
		b = append(b, byte(strip))
		return append(append(b, name...), 0)
	}
	b = append(b, name...)
	return append(b, make([]byte, 8-len(b)%8)...)
}

// TestIndexNamesRefusesWhatItCannotRead: an index file that is not laid
// out as the format says is left to git, wherever it goes wrong, and
// reading it never reads past its end.
func TestIndexNamesRefusesWhatItCannotRead(t *testing.T) {
	specs := newSpecSet([]string{"."})
	good := entry(2, "a.json", 0, false)
	for _, tc := range []struct {
		name string
		data []byte
		ok   bool
	}{
		{"a good index of version 2", indexFile(2, 1, good), true},
		{"a good index of version 4", indexFile(4, 2, entry(4, "a.json", 0, false), entry(4, "b.json", 6, false)), true},
		{"an optional extension", indexFile(2, 1, good, []byte("TREE\x00\x00\x00\x02ab")), true},
		{"not an index", append([]byte("DIRX\x00\x00\x00\x02\x00\x00\x00\x00"), make([]byte, hashSize)...), false},
		{"too short for a header", []byte("DIRC\x00\x00\x00\x02"), false},
		{"more entries than there are", indexFile(2, 2, good), false},
		{"an entry cut short", indexFile(2, 1, good[:30]), false},
		{"a name without its end", indexFile(2, 1, good[:40+hashSize+2+3]), false},
		{"a name its flags measure otherwise", indexFile(2, 1, append(entry(2, "a.json", 0, false)[:40+hashSize], append([]byte{0, 5}, entry(2, "a.json", 0, false)[40+hashSize+2:]...)...)), false},
		{"an empty name", indexFile(2, 1, entry(2, "", 0, false)), false},
		{"version 3's flags in version 2", indexFile(2, 1, entry(2, "a.json", 0, true)), false},
		{"version 3's flags in version 3", indexFile(3, 1, entry(3, "a.json", 0, true)), true},
		{"a version 4 name that strips more than there is", indexFile(4, 1, entry(4, "a.json", 1, false)), false},
		{"a version 4 name without its end", indexFile(4, 1, entry(4, "a.json", 0, false)[:40+hashSize+2+4]), false},
		{"a version 4 strip count without its end", indexFile(4, 1, append(entry(4, "a", 0, false)[:40+hashSize+2], 0x80)), false},
		{"padding past the end", indexFile(2, 1, good[:len(good)-1]), false},
		{"an extension's header cut short", indexFile(2, 1, good, []byte("TREE")), false},
		{"an extension longer than the file", indexFile(2, 1, good, []byte("TREE\x00\x00\x10\x00")), false},
		{"an extension git must understand", indexFile(2, 1, good, []byte("link\x00\x00\x00\x00")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			names, ok := indexNames(tc.data, specs)
			if ok != tc.ok {
				t.Fatalf("read: %v, want %v (names %v)", ok, tc.ok, names)
			}
			if ok && !names["a.json"] {
				t.Errorf("names %v, want a.json", names)
			}
		})
	}
}

// BenchmarkListed: the listing of a hook's check — the example workspace's
// files and records, fifteen paths — in a work tree of 100,000 files,
// read from the index file and asked of git, side by side.
func BenchmarkListed(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	top := b.TempDir()
	run := func(stdin string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Stdin = top, strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("", "init", "-q")
	blob := "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391" // the empty file
	var info strings.Builder
	for i := range 100000 {
		fmt.Fprintf(&info, "100644 %s\tsrc/pkg%03d/module%02d/file%05d.go\n", blob, i%500, i%40, i)
	}
	rels := []string{".amazonq/mcp.json", ".cursor/mcp.json", ".gemini/settings.json", ".junie/mcp/mcp.json", ".kiro/settings/mcp.json",
		".mcp.json", ".qwen/settings.json", ".repository/.clone", ".repository/mcp-managed.json", ".repository/mcp-managed.machine.json",
		".roo/mcp.json", ".vscode/mcp.json", ".zed/settings.json", "opencode.json", "opencode.jsonc"}
	for _, rel := range rels {
		fmt.Fprintf(&info, "100644 %s\t%s\n", blob, rel)
	}
	run(info.String(), "update-index", "--add", "--index-info")
	for _, bc := range []struct {
		name string
		list func() (map[string]bool, error)
	}{
		{"index", func() (map[string]bool, error) {
			names, ok := fromIndex(top, rels)
			if !ok {
				b.Fatal("fromIndex left the index to git")
			}
			return names, nil
		}},
		{"git", func() (map[string]bool, error) { return askGit(top, rels) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				names, err := bc.list()
				if err != nil || len(names) != len(rels) {
					b.Fatalf("listed %d names (%v), want %d", len(names), err, len(rels))
				}
			}
		})
	}
}

// TestIndexLeftToGitForEachVariable: with any variable that makes git read
// another work tree, index or configuration, or match pathspecs otherwise,
// the index is git's to read, whatever git then says. The values name the
// repository's own (or change nothing), so that git answers.
func TestIndexLeftToGitForEachVariable(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	top := t.TempDir()
	indexRepo(t, top)
	for name, value := range map[string]string{
		"GIT_WORK_TREE":         top,
		"GIT_COMMON_DIR":        filepath.Join(top, ".git"),
		"GIT_OBJECT_DIRECTORY":  filepath.Join(top, ".git", "objects"),
		"GIT_CONFIG":            filepath.Join(top, ".git", "config"),
		"GIT_CONFIG_COUNT":      "0",
		"GIT_ICASE_PATHSPECS":   "1",
		"GIT_GLOB_PATHSPECS":    "1",
		"GIT_NOGLOB_PATHSPECS":  "1",
		"GIT_LITERAL_PATHSPECS": "1",
		"GIT_TEST_SPLIT_INDEX":  "0",
	} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, value)
			if _, read := fromIndex(top, indexQuestions); read {
				t.Fatalf("fromIndex read the index with %s set", name)
			}
			listedAsGit(t, top, indexQuestions)
		})
	}
}
