package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An ordinary user (uid 4321, in group 4321) syncs a workspace whose
// folder the group may write, holding files of root's: a .mcp.json the
// group may only read (root:4321 0644) and a .cursor/mcp.json it may
// write (root:4321 0664). repo refuses the first by the system's access
// check, with exit 2 and nothing written: on main it replaced it, owner
// and group changed, because the folder let the rename happen and only
// the owner's write bit was looked at. The second, once the first is out
// of the way, is written in place, with a warning: a new file could not
// be given root as its owner. An ownership record of root's is refused
// as the first was.
//
// It needs root, to make root's files and run repo as another user; CI
// on GitHub runs as a normal user, so it skips there.
func TestFilesTheUserCannotWrite(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: to make files another user owns, and run repo as an unprivileged user")
	}
	if testing.Short() {
		t.Skip("builds the binary")
	}
	const uid, gid = 4321, 4321
	// Folders the unprivileged user can reach (t.TempDir is 0700).
	base, err := os.MkdirTemp("", "repo-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	bin := filepath.Join(base, "repo")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/repo-manager/repo/cmd/repo").CombinedOutput(); err != nil {
		t.Fatalf("cannot build repo: %v\n%s", err, out)
	}
	home := filepath.Join(base, "home")
	root := filepath.Join(base, "ws")
	files := map[string]string{
		".repository/config.toml":                   "[mcp]\ntools = [\"claude\", \"cursor\"]\n",
		".repository/extensions/ext/extension.toml": "name = \"ext\"\n[provides]\nmcp = \"mcp.json\"\n",
		".repository/extensions/ext/mcp.json":       `{"mcpServers": {"s": {"command": "npx", "args": ["-y", "s-mcp"]}}}`,
		".mcp.json":                                 "{\"mcpServers\": {\"root's\": {\"command\": \"x\"}}}\n",
		".cursor/mcp.json":                          "{\"mcpServers\": {}}\n",
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The workspace's folders and the group's files: root's, the group
	// may write the folders; the user's home is the user's.
	for _, p := range []string{root, filepath.Join(root, ".repository"), filepath.Join(root, ".cursor")} {
		os.Chown(p, 0, gid)
		os.Chmod(p, 0o775)
	}
	mcp, cursor := filepath.Join(root, ".mcp.json"), filepath.Join(root, ".cursor", "mcp.json")
	os.Chown(mcp, 0, gid)
	os.Chown(cursor, 0, gid)
	os.Chmod(cursor, 0o664)
	os.MkdirAll(home, 0o755)
	os.Chown(home, uid, gid)

	sync := func() (string, int) {
		c := exec.Command(bin, "sync")
		c.Dir = root
		c.Env = []string{"HOME=" + home, "PATH=/usr/bin:/bin", "NO_COLOR=1"}
		c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: gid, Groups: []uint32{gid}}}
		out, err := c.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	owner := func(p string) (uint32, uint32) {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		return st.Uid, st.Gid
	}

	out, code := sync()
	if code != 2 || !strings.Contains(out, "repo: .mcp.json: you (uid 4321) may not write it: it belongs to uid 0, gid 4321, mode 0644") {
		t.Fatalf("exit %d, want 2 and .mcp.json refused:\n%s", code, out)
	}
	if got := readFile(t, mcp); got != files[".mcp.json"] {
		t.Errorf(".mcp.json was written:\n%s", got)
	}
	if u, g := owner(mcp); u != 0 || g != gid {
		t.Errorf(".mcp.json now belongs to %d:%d", u, g)
	}
	if got := readFile(t, cursor); got != files[".cursor/mcp.json"] {
		t.Errorf(".cursor/mcp.json was written though the run was refused:\n%s", got)
	}

	// Without Claude Code, the group's writable file is written, in place.
	os.WriteFile(filepath.Join(root, ".repository/config.toml"), []byte("[mcp]\ntools = [\"cursor\"]\n"), 0o644)
	out, code = sync()
	if code != 0 || !strings.Contains(out, "warning: .cursor/mcp.json: written in place, not replaced atomically: its owner and group (0:4321) cannot be given to a new file") {
		t.Fatalf("exit %d, want 0 with a warning that .cursor/mcp.json was written in place:\n%s", code, out)
	}
	if !strings.Contains(readFile(t, cursor), `"s"`) {
		t.Error(".cursor/mcp.json does not hold the server")
	}
	if u, g := owner(cursor); u != 0 || g != gid {
		t.Errorf(".cursor/mcp.json now belongs to %d:%d, want root's, the group's", u, g)
	}
	if fi, _ := os.Stat(cursor); fi.Mode().Perm() != 0o664 {
		t.Errorf(".cursor/mcp.json's mode is %v, want 0664", fi.Mode())
	}

	// The ownership record is refused the same way, when it is root's.
	record := filepath.Join(root, ".repository", "mcp-managed.json")
	os.Chown(record, 0, gid)
	os.Chmod(record, 0o644)
	written := readFile(t, cursor)
	os.WriteFile(filepath.Join(root, ".repository/extensions/ext/mcp.json"), []byte(`{"mcpServers": {"s2": {"command": "npx"}}}`), 0o644)
	out, code = sync()
	if code != 2 || !strings.Contains(out, "repo: .repository/mcp-managed.json: you (uid 4321) may not write it") {
		t.Fatalf("exit %d, want 2 and the record refused:\n%s", code, out)
	}
	if readFile(t, cursor) != written {
		t.Error(".cursor/mcp.json was written though the run was refused")
	}
}
