package commit

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/repo-manager/repo/extensions"
)

// Who may read and write a file is what the user set, before and after a
// sync: its POSIX ACL, its extended attributes, and its group bits. The
// ACLs and attributes are set with raw xattr calls (the acl package's
// setfacl is not needed).

// POSIX ACL entries, as Linux stores system.posix_acl_access (version 2).
const (
	aclUserObj  = 0x01
	aclUser     = 0x02
	aclGroupObj = 0x04
	aclMask     = 0x10
	aclOther    = 0x20
	aclNoID     = 0xffffffff
)

type aclEntry struct {
	tag, perm uint16
	id        uint32
}

func aclBytes(entries ...aclEntry) []byte {
	b := make([]byte, 4+8*len(entries))
	binary.LittleEndian.PutUint32(b, 2)
	for i, e := range entries {
		off := 4 + 8*i
		binary.LittleEndian.PutUint16(b[off:], e.tag)
		binary.LittleEndian.PutUint16(b[off+2:], e.perm)
		binary.LittleEndian.PutUint32(b[off+4:], e.id)
	}
	return b
}

// getXattr is the attribute's value, nil if the file has none.
func getXattr(t *testing.T, path, name string) []byte {
	t.Helper()
	buf := make([]byte, 4096)
	n, err := unix.Getxattr(path, name, buf)
	if errors.Is(err, unix.ENODATA) {
		return nil
	}
	if err != nil {
		t.Fatalf("getxattr %s %s: %v", path, name, err)
	}
	return buf[:n]
}

func setXattr(t *testing.T, path, name string, value []byte) {
	t.Helper()
	if err := unix.Setxattr(path, name, value, 0); err != nil {
		if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EPERM) {
			t.Skipf("setxattr %s: %v (the file system or this user cannot)", name, err)
		}
		t.Fatalf("setxattr %s: %v", name, err)
	}
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

// A file shared with a named user through its ACL (user 1234 rw, mask rw,
// the owning group read-only) keeps that ACL across a sync, and its group
// bits, which are the ACL's mask. On main it came back 0664 without an
// ACL: user 1234 had lost access, and the owning group had gained write.
func TestACLKept(t *testing.T) {
	env := testEnv(t)
	mcp := filepath.Join(env.Root, ".mcp.json")
	write(t, mcp, "{}\n")
	os.Chmod(mcp, 0o640)
	setXattr(t, mcp, "system.posix_acl_access", aclBytes(
		aclEntry{aclUserObj, 6, aclNoID}, aclEntry{aclUser, 6, 1234}, aclEntry{aclGroupObj, 4, aclNoID},
		aclEntry{aclMask, 6, aclNoID}, aclEntry{aclOther, 0, aclNoID}))
	acl, before := getXattr(t, mcp, "system.posix_acl_access"), mode(t, mcp)
	if before.Perm() != 0o660 {
		t.Fatalf("mode %v with the ACL, want the mask in the group bits (0660)", before)
	}
	mustSync(t, env, []extensions.Server{server}, "claude")
	if !strings.Contains(read(t, mcp), `"s"`) {
		t.Fatal("the sync did not write .mcp.json")
	}
	if got := getXattr(t, mcp, "system.posix_acl_access"); !bytes.Equal(got, acl) {
		t.Errorf("ACL after the sync %x, want %x (user 1234 rw, group r, mask rw)", got, acl)
	}
	if got := mode(t, mcp); got != before {
		t.Errorf("mode after the sync %v, want %v", got, before)
	}
	assertNoStaged(t, env.Root)
}

// A file without an ACL in a folder whose default ACL gives user 1234
// access stays without one: a sync does not widen who may read it (on
// main the new file took the folder's default ACL). A new file gets the
// folder's default ACL, as any program's new file does.
func TestDefaultACLNotGivenToAnExistingFile(t *testing.T) {
	env := testEnv(t)
	mcp := filepath.Join(env.Root, ".mcp.json")
	write(t, mcp, "{}\n")
	os.Chmod(mcp, 0o644)
	setXattr(t, env.Root, "system.posix_acl_default", aclBytes(
		aclEntry{aclUserObj, 7, aclNoID}, aclEntry{aclUser, 7, 1234}, aclEntry{aclGroupObj, 5, aclNoID},
		aclEntry{aclMask, 7, aclNoID}, aclEntry{aclOther, 5, aclNoID}))
	mustSync(t, env, []extensions.Server{server}, "claude", "cursor")
	if got := getXattr(t, mcp, "system.posix_acl_access"); got != nil {
		t.Errorf(".mcp.json has an ACL after the sync (%x): its folder's default, which it did not have", got)
	}
	if got := mode(t, mcp).Perm(); got != 0o644 {
		t.Errorf(".mcp.json's mode %v after the sync, want 0644", got)
	}
	// .cursor/ is new: it and its new file follow the folder's default.
	if got := getXattr(t, filepath.Join(env.Root, ".cursor", "mcp.json"), "system.posix_acl_access"); got == nil {
		t.Error("the new .cursor/mcp.json did not get its folder's default ACL")
	}
}

// A file's extended attributes stay across a sync: user.* (what programs
// and the user tag a file with), and as root trusted.* and security.*.
// On main every one was lost.
func TestXattrsKept(t *testing.T) {
	env := testEnv(t)
	mcp := filepath.Join(env.Root, ".mcp.json")
	write(t, mcp, "{}\n")
	attrs := map[string][]byte{"user.origin": []byte("https://example.com/x"), "user.empty": {}}
	if os.Geteuid() == 0 {
		attrs["trusted.repo-test"] = []byte("root's")
		attrs["security.repo-test"] = []byte("label")
	}
	for name, v := range attrs {
		setXattr(t, mcp, name, v)
	}
	mustSync(t, env, []extensions.Server{server}, "claude")
	if !strings.Contains(read(t, mcp), `"s"`) {
		t.Fatal("the sync did not write .mcp.json")
	}
	for name, v := range attrs {
		if got := getXattr(t, mcp, name); got == nil || !bytes.Equal(got, v) {
			t.Errorf("%s after the sync: %q, want %q", name, got, v)
		}
	}
	if os.Geteuid() != 0 {
		t.Log("trusted.* and security.* not checked: they need root")
	}
}

// The owner and group of a file stay across a sync (run as root, which
// may give a new file any owner).
func TestOwnerKept(t *testing.T) {
	needRoot(t)
	env := testEnv(t)
	mcp := filepath.Join(env.Root, ".mcp.json")
	write(t, mcp, "{}\n")
	if err := os.Chown(mcp, 1234, 5678); err != nil {
		t.Fatal(err)
	}
	os.Chmod(mcp, 0o640|os.ModeSetgid) // setgid, which a chown clears
	mustSync(t, env, []extensions.Server{server}, "claude")
	fi, err := os.Stat(mcp)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 1234 || st.Gid != 5678 || fi.Mode()&(os.ModePerm|os.ModeSetgid) != 0o640|os.ModeSetgid {
		t.Errorf("after the sync: %d:%d %v, want 1234:5678 with setgid and 0640", st.Uid, st.Gid, fi.Mode())
	}
}
