package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"

	"github.com/repo-manager/repo/internal/canon"
	"github.com/repo-manager/repo/internal/ordered"
)

// The digests a record holds (Owned.Digest, Previous, Defaults). Committed
// records hold them, so a change to how entries are canonicalised or
// hashed must not change any (digest_test.go pins them).

// Digest fingerprints an entry value. Key order and whitespace do not
// matter (a tool that reformats its file has not edited our entry), so the
// value is canonicalised first.
func Digest(raw []byte) string {
	return CanonicalDigest(canon.JSON(raw), "")
}

// NormalizedDigest fingerprints an entry with the workspace root spelled
// <<root>>: the digest of an entry does not depend on where the workspace
// is, so a committed record stays valid on every clone.
func NormalizedDigest(raw []byte, root string) string {
	return CanonicalDigest(canon.JSON(raw), root)
}

// EntryDigest is NormalizedDigest(ordered.JSON(v), root) for an entry repo
// builds, without rendering it (canon.Value).
func EntryDigest(v ordered.Object, root string) string {
	var d *Digests
	return d.Entry(v, root)
}

// Digests remembers, for one run, the digest of each text it hashed: the
// canonical text with the root spelled <<root>>, which is what a digest is
// of. Most tools write an entry alike, so a run hashes the same text for
// several of them: a no-op check of the example workspace hashed 55 entries,
// which were 20 texts, and SHA-256 without the CPU's SHA extensions is a few
// microseconds each. A base of a hand edit is that text too, so checking it
// against its digest finds the digest its entry gave. A nil Digests
// remembers nothing. Safe for concurrent use.
type Digests struct {
	mu     sync.Mutex
	byText map[string]string // root spelled <<root>> → digest
	roots  map[string][]byte // root → its canonical text
}

// NewDigests returns an empty memo.
func NewDigests() *Digests {
	return &Digests{byText: map[string]string{}, roots: map[string][]byte{}}
}

// Canonical is CanonicalDigest(c, root).
func (d *Digests) Canonical(c []byte, root string) string {
	if d == nil {
		return CanonicalDigest(c, root)
	}
	n := c
	if root != "" {
		bp := digestBufs.Get().(*[]byte)
		defer digestBufs.Put(bp)
		d.mu.Lock()
		text, ok := d.roots[root]
		if !ok {
			text = rootText(root)
			d.roots[root] = text
		}
		d.mu.Unlock()
		n = appendNormalized((*bp)[:0], c, text)
		*bp = n[:0]
	}
	d.mu.Lock()
	sum, ok := d.byText[string(n)]
	d.mu.Unlock()
	if ok {
		return sum
	}
	sum = CanonicalDigest(n, "")
	d.mu.Lock()
	d.byText[string(n)] = sum
	d.mu.Unlock()
	return sum
}

// AppendNormalized appends canonical text c to b with root (if any)
// spelled <<root>>: the text a digest is of, and a base of a hand edit
// holds.
func AppendNormalized(b, c []byte, root string) []byte {
	if root == "" {
		return append(b, c...)
	}
	return appendNormalized(b, c, rootText(root))
}

// rootText is root as canonical text spells it.
func rootText(root string) []byte { return []byte(canon.Text(root)) }

// appendNormalized is AppendNormalized with the root's canonical text.
func appendNormalized(b, c, text []byte) []byte {
	for {
		i := bytes.Index(c, text)
		if i < 0 {
			return append(b, c...)
		}
		b = append(append(b, c[:i]...), "<<root>>"...)
		c = c[i+len(text):]
	}
}

// Raw is Digest(raw).
func (d *Digests) Raw(raw []byte) string { return d.Canonical(canon.JSON(raw), "") }

// Entry is EntryDigest(v, root).
func (d *Digests) Entry(v ordered.Object, root string) string {
	// The canonical text is only hashed: it is made in a buffer the run
	// reuses (a new one per entry was a twentieth of what planning a first
	// sync allocated).
	bp := digestBufs.Get().(*[]byte)
	defer digestBufs.Put(bp)
	c, ok := canon.AppendValue((*bp)[:0], v)
	if !ok {
		return d.Canonical(canon.JSON(ordered.JSON(v)), root)
	}
	*bp = c[:0]
	return d.Canonical(c, root)
}

// digestBufs are the buffers the canonical and normalised texts are made
// in: they are only hashed.
var digestBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// CanonicalDigest hashes a canonical entry (canon.JSON), with root (if
// any) spelled <<root>> (AppendNormalized).
func CanonicalDigest(c []byte, root string) string {
	if root != "" {
		var buf [1024]byte // on the stack: an entry's text rarely needs more
		c = AppendNormalized(buf[:0], c, root)
	}
	sum := sha256.Sum256(c)
	return "sha256:" + hex.EncodeToString(sum[:16])
}

// MatchesDigest reports whether an entry found in a file is the one a
// record digest was taken of. The entry may have been written at another
// root (a teammate's checkout): the root it shows — the part of a path
// before /.repository/extensions/ — is tried as well as this one.
func MatchesDigest(raw []byte, digest, root string) bool {
	if NormalizedDigest(raw, root) == digest {
		return true
	}
	c := string(canon.JSON(raw))
	marker := canon.Text(string(filepath.Separator) + ".repository" + string(filepath.Separator) + "extensions" + string(filepath.Separator))
	if i := strings.Index(c, marker); i > 0 {
		start := strings.LastIndexByte(c[:i], '"') + 1
		if other := c[start:i]; other != "" {
			var unq string
			if json.Unmarshal([]byte(`"`+other+`"`), &unq) == nil && NormalizedDigest(raw, unq) == digest {
				return true
			}
		}
	}
	return false
}
