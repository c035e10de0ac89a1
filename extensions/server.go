// Package extensions is repo's source state: it finds the workspace root,
// reads each extension's manifest and MCP file, and resolves every server
// declaration for this machine (venv python, absolute root, templates),
// leaving environment references for the AI tools to expand.
package extensions

import (
	"fmt"
	"strings"

	"github.com/repo-manager/repo/internal/termtext"
)

// Transports a server can use.
const (
	Stdio = "stdio"
	HTTP  = "http"
	SSE   = "sse"
)

// KV is one member of a string map whose order the author chose.
type KV struct {
	Key   string
	Value string
}

// Spec is what a server runs or connects to: the fields of an MCP file's
// entry, shared by a declaration as written and a server as resolved.
type Spec struct {
	Transport string // stdio, http or sse
	Command   string
	Args      []string
	Env       []KV
	Cwd       string
	URL       string
	Headers   []KV
	// Auth is how a remote server authenticates (oauth, headersHelper);
	// nil when the author gave neither.
	Auth *Auth
}

// Server is a declaration after resolution.
type Server struct {
	Name      string
	Extension string // the extension's name
	ExtDir    string // absolute extension folder
	Source    string // the MCP file, relative to the root (slash-separated)
	Line      int    // line of the declaration in Source
	Spec
	// Dir is the folder the server's relative paths are relative to: its
	// cwd, else the root; empty when cwd holds an environment reference.
	Dir string
	// Settings are the author's, as declared: nothing in them is resolved.
	Settings Settings
	// Resolved marks the text resolution wrote into the values above.
	Resolved Resolved
}

// Span is a byte range [Start, End) of a resolved value that resolution
// wrote: a path of this machine, never the author's text. From names it
// as its template does: "root", "home", "extension.dir", "runtime.python".
type Span struct {
	Start, End int
	From       string
}

// Resolved holds, for each value of a server, the spans resolution filled
// in; everything outside them is the author's text as written. A tool must
// keep a span literal, while the author's ${NAME} outside the spans is an
// environment reference: a workspace at /tmp/${HOME} gives "<<root>>/x"
// the value /tmp/${HOME}/x, in which ${HOME} is a path, not a reference.
//
// Resolution records the spans because it is the one place that knows which
// bytes it wrote. Handing the translator the root and home to look for
// instead would be guessing: the extension folder and the venv python
// contain the root, and an author's text can equal a path, so a substring
// search cannot tell a path from a reference that reads the same.
// A nil slice means no spans: all author text (a Server built by hand).
type Resolved struct {
	Command []Span
	Args    [][]Span // by index into Args
	Env     [][]Span // by index into Env
	Cwd     []Span
	URL     []Span
	Headers [][]Span // by index into Headers
	Dir     []Span   // of Server.Dir
}

// At returns the spans of element i of a per-element list, or nil.
func At(spans [][]Span, i int) []Span {
	if i < len(spans) {
		return spans[i]
	}
	return nil
}

// Remote reports whether the server is reached over the network.
func (s *Spec) Remote() bool { return s.Transport != Stdio }

// Error is a problem with an extension's input. It names the file, the
// position when the format gives one, and the extension, server and field
// involved, so the message alone says where to look.
type Error struct {
	File      string // relative to the root, slash-separated
	Line, Col int
	Extension string
	Server    string
	Field     string
	Msg       string
}

// Error prints every name it holds through termtext.Safe: a file, an
// extension or a field can be named by the workspace, and the message
// saying that one cannot be printed must not print it.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(termtext.Safe(e.File))
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	var ctx []string
	if e.Extension != "" {
		ctx = append(ctx, "extension "+termtext.Safe(e.Extension))
	}
	if e.Server != "" {
		ctx = append(ctx, fmt.Sprintf("server %q", e.Server))
	}
	if e.Field != "" {
		ctx = append(ctx, "field "+termtext.Safe(e.Field))
	}
	if len(ctx) > 0 {
		b.WriteString(strings.Join(ctx, ", "))
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}
