// Package setting is the one table of the per-server settings an MCP file
// may give (enabled, includeTools, …): for each, its name, the JSON value
// it takes, what it means, its key in a tool profile's [entry.settings],
// whether trust judges it, and how repo mcp list shows it.
//
// The code that handles settings reads the table: parsing (extensions),
// profile validation (toolprofiles), translation (translator), repo mcp list
// (cmd) and the trust digest (internal/trust). What is a document or a
// type is generated from it by go generate ./internal/setting (make
// generate): the structs that hold the values (extensions.Settings,
// toolprofiles.Settings, trust.Settings), the docs' tables and the JSON
// schemas; a test fails when one of them is stale. It imports nothing of
// repo, so that every package can read it.
//
// A remote server's authentication (oauth, headersHelper) is not a row:
// it is part of what the server connects with (extensions.Auth), nested,
// with its own profile format ([entry.remote.auth], by part) and its place
// in trust's digest beside the URL and headers.
package setting

// Kind is the JSON value a setting takes; the code that handles settings
// handles each kind once.
type Kind int

const (
	// Bool is true or false.
	Bool Kind = iota + 1
	// Tools is a list of the server's tool names: non-empty strings, each
	// once, as the server reports them in tools/list.
	Tools
	// Seconds is a whole number of seconds, 1 to MaxSeconds. A tool
	// counting milliseconds gets it times 1000 (the profile's unit).
	Seconds
)

// MaxSeconds caps a timeout (24 hours): a larger value is far more likely
// milliseconds written by mistake than a wish.
const MaxSeconds = 86400

// Row is one setting.
type Row struct {
	// Name is the member of a server in an MCP file, and the setting's name
	// in every message, in repo mcp list and in the docs.
	Name string
	Kind Kind
	// Meaning is what the setting asks of a tool, one sentence: the docs
	// and the generated fields' comments say it.
	Meaning string
	// Default (Bool) is what leaving the setting out means.
	Default bool
	// Empty (Tools), when set, refuses an empty list with this message:
	// leaving the setting out then means something no list does (Absent).
	Empty string
	// Absent is what leaving out a setting with Empty means, for trust's
	// definition, where it is null.
	Absent string
	// Profile is the setting's key under a tool profile's [entry.settings].
	Profile string
	// EveryRequest: a profile may mark the member it maps this setting to
	// as bounding every request the tool sends (every_request).
	EveryRequest bool
	// NoMember is what a tool without a member for the setting does with
	// it, for the docs, when that is more than leaving it out with a
	// warning (the translator's case for the setting says why).
	NoMember string
	// Trust is the setting's member in trust's definition (snake_case), for
	// a setting that changes what a server can do; "" for one that changes
	// nothing (a timeout): trust does not judge it.
	Trust string
	// Off and On (Bool) are how repo mcp list shows false and true; empty:
	// name=false, name=true.
	Off, On string
}

// Table is every per-server setting, in the order repo writes their
// members into an entry, lists them and documents them.
var Table = []Row{
	{
		Name: "enabled", Kind: Bool, Default: true,
		Meaning:  "`false` keeps the server declared but off.",
		Profile:  "enabled",
		NoMember: "off: not written",
		Trust:    "enabled",
		Off:      "off", On: "on",
	},
	{
		Name: "includeTools", Kind: Tools,
		Meaning: "Only these tools of the server are offered to the model.",
		Empty:   "an empty list offers no tool at all; to turn the server off, write \"enabled\": false",
		Absent:  "every tool of the server",
		Profile: "include_tools",
		Trust:   "include_tools",
	},
	{
		Name: "excludeTools", Kind: Tools,
		Meaning: "These tools are never offered.",
		Profile: "exclude_tools",
		Trust:   "exclude_tools",
	},
	{
		Name: "autoApprove", Kind: Tools,
		Meaning: "These tools are called without asking the user each time.",
		Profile: "auto_approve",
		Trust:   "auto_approve",
	},
	{
		Name: "startupTimeout", Kind: Seconds,
		Meaning: "How long the tool waits for the server to start: launch it, initialize, list its tools.",
		Profile: "startup_timeout",
	},
	{
		Name: "toolTimeout", Kind: Seconds,
		Meaning:      "How long the tool waits for one tool call to answer.",
		Profile:      "tool_timeout",
		EveryRequest: true,
	},
}

// Lookup is the row of the setting name.
func Lookup(name string) (Row, bool) {
	for _, r := range Table {
		if r.Name == name {
			return r, true
		}
	}
	return Row{}, false
}

// Names are the settings' names, in the table's order.
func Names() []string {
	out := make([]string, len(Table))
	for i, r := range Table {
		out[i] = r.Name
	}
	return out
}

// ProfileKeys are the keys a profile may give for the setting beside
// field, each for one kind: negate (the member says the opposite), each (a
// table per tool instead of a list), unit and max (a timeout's unit and
// the tool's largest value), every_request (see EveryRequest).
func (r Row) ProfileKeys() []string {
	switch r.Kind {
	case Bool:
		return []string{"negate"}
	case Tools:
		return []string{"each"}
	case Seconds:
		if r.EveryRequest {
			return []string{"unit", "max", "every_request"}
		}
		return []string{"unit", "max"}
	}
	return nil
}

// Takes reports whether a profile may give key for the setting.
func (r Row) Takes(key string) bool {
	for _, k := range r.ProfileKeys() {
		if k == key {
			return true
		}
	}
	return false
}

// Taking are the rows a profile may give key for.
func Taking(key string) []Row {
	var out []Row
	for _, r := range Table {
		if r.Takes(key) {
			out = append(out, r)
		}
	}
	return out
}

// Trusted are the rows trust judges (Trust set), in the table's order.
func Trusted() []Row {
	var out []Row
	for _, r := range Table {
		if r.Trust != "" {
			out = append(out, r)
		}
	}
	return out
}

// GoName is the setting's field in the structs generated from the table:
// its name with the first letter upper-case (includeTools: IncludeTools).
func (r Row) GoName() string {
	if r.Name == "" || r.Name[0] < 'a' || r.Name[0] > 'z' {
		return r.Name
	}
	return string(r.Name[0]-'a'+'A') + r.Name[1:]
}
