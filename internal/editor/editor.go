// Package editor is the contract between the plan (internal/plan) and the
// format editors (internal/jsonedit, tomledit, yamledit): what a parsed
// config file must let the plan do with the server map at a key path in
// it. Each editor implements it directly; plan chooses a Format per target
// (the JSON dialect and skeleton, the YAML map or list and its name
// field) and from then on knows no format.
//
// The promises every Doc keeps, which the shared suite (package
// editortest; TestContract and FuzzContract run it on every editor) holds
// each editor to, on real-world-shaped files:
//
//   - Bytes outside the edited entries never change -- comments, blank
//     lines, key order, quoting, indentation, line endings, a BOM, the
//     presence or absence of a final newline -- but for what the format's
//     syntax needs next to them (the comma after JSON's previous last
//     member, a YAML `key: {}` made a block for its first entry).
//   - A Delete of the entries a Write added (and a DeleteEmpty of the
//     containers it created) gives back the bytes from before the Write.
//   - A second Write of the entries a Write wrote, with the same values,
//     changes no byte.
//   - A batch (a Write or a Delete of many) gives the bytes of an edit of
//     each entry in turn, in the order given, when each of those succeeds.
//   - An edit of N entries parses and checks the file once, so that it
//     grows with the file, never with N times the file (BenchmarkBatch in
//     each editor's package).
//   - A broken result is never returned: every edit re-reads what it
//     wrote, and an error leaves the Doc as it was (a Doc is immutable).
package editor

// Member is one entry of a server map as the file holds it.
type Member struct {
	Key   string
	Value []byte // the entry as compact strict JSON, whatever the file's format
	// Line is the 1-based line the entry starts on, or 0 when the editor
	// leaves numbering to Doc.Line (counting the lines of a 100 MB file for
	// every entry costs more than planning it).
	Line int
}

// Entry is one entry to write: its name and its value as JSON (an object).
type Entry struct {
	Name  string
	Value []byte
}

// Doc is a parsed config file. Edits return a new Doc and leave the
// receiver as it was; an edit that changes nothing may return the
// receiver itself. key is the path of the server map from the top of the
// file (["mcpServers"], ["mcp_servers"], ["projects", root, "mcpServers"]).
type Doc interface {
	// Entries returns the entries of the server map at key, in file order.
	// found is false when there is no server map there (missing, null or,
	// for YAML, empty). A value at key or on the way that is not what the
	// format's server map is, or a name given twice, is an error with a
	// position (see Located).
	Entries(key []string) (members []Member, found bool, err error)
	// Line is the 1-based line entry name of the map at key starts on, for
	// a message; 0 when it is not there.
	Line(key []string, name string) int
	// Write rewrites the entries the map holds (updates) where they stand,
	// then adds the new ones (adds) after the last entry, creating the map
	// and the containers on the way to it when missing: one edit, parsed
	// and checked once. An update the map does not hold, or an addition it
	// does, is an error.
	Write(key []string, updates, adds []Entry) (Doc, error)
	// Delete removes the entries names from the map at key, in the order
	// given, in one edit; names not there are skipped, and when none is,
	// Delete returns the receiver. A name given twice is an error.
	Delete(key []string, names []string) (Doc, error)
	// Depth is how many leading keys of key lead to containers the file
	// has: len(key) when the map's container exists. A format whose
	// entries are not kept in nested containers (TOML's tables) reports
	// len(key): there is nothing to create or to remove.
	Depth(key []string) (int, error)
	// DeleteEmpty removes the container at key from its parent when it is
	// empty (nothing in it but whitespace), which is how a container Write
	// created goes once its last entry has. removed is false, with the
	// receiver, when there is nothing to remove.
	DeleteEmpty(key []string) (d Doc, removed bool, err error)
	// Bare reports a file that holds nothing but what a new file of its
	// format holds (blank, the format's skeleton, {} for JSON): a file
	// repo created and left so may be deleted.
	Bare() bool
	// Bytes is the file's content. The caller must not change it.
	Bytes() []byte
}

// Format opens the documents of one kind of file: a format with the
// options a tool's profile chose for it.
type Format interface {
	// Parse reads a file's bytes; the Doc may keep data, which the caller
	// must not change afterwards. A file that is not valid in the format
	// is an error with a position (see Located).
	Parse(data []byte) (Doc, error)
	// New is the document of a file that does not exist yet.
	New() Doc
}

// Located is an editor's error that says where in the file its cause is
// (a syntax error, a server map of the wrong shape, a duplicate key).
type Located interface {
	error
	// Position is the 1-based line and column; column 0 when the error is
	// about a whole line.
	Position() (line, col int)
	// Reason is the message without the position, for a caller that prints
	// the position itself (file:line:col).
	Reason() string
}
