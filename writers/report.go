package writers

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/teampolicy"
	"github.com/repo-manager/repo/internal/trustgate"
)

// Report is what a run did or, for Check and DryRun, would do: the
// document `repo sync --output json` prints (docs/schema/sync.v1.json),
// which its JSON encoding is; for Forget, the one of `repo forget
// --output json` (forget.v1.json: Scopes instead of Scope, Kept By
// instead of Reason). The fields without a JSON name are for text.
type Report struct {
	Version    int      `json:"version"`
	Mode       string   `json:"mode"` // sync, check, dry-run, check+dry-run; forget, dry-run
	Root       string   `json:"root"`
	Scope      string   `json:"scope"`
	Tools      []string `json:"tools"`
	ToolSource string   `json:"tool_source"` // --tool, config, detected
	Committed  bool     `json:"committed,omitempty"`
	// Stale (Check, DryRun): a sync would change a file.
	Stale    bool     `json:"stale"`
	Files    []File   `json:"files"`
	Warnings []string `json:"warnings"`
	// Kept are where repo's entries stay though their tools are not
	// selected: tools no longer detected; for Forget, a file a staying
	// tool writes too.
	Kept      []Kept      `json:"kept,omitempty"`
	Yours     []Yours     `json:"yours,omitempty"`
	Shadows   []Shadow    `json:"shadows,omitempty"`
	KeptEdits []KeptEdit  `json:"kept_edits,omitempty"`
	Untrusted []Untrusted `json:"untrusted,omitempty"`
	Since     []Since     `json:"since_last_sync,omitempty"`
	Policy    *Policy     `json:"policy,omitempty"`
	Tracked   []Tracked   `json:"tracked,omitempty"`

	// Scopes are a Forget's scopes.
	Scopes []string `json:"-"`
	// Unchecked are the per-clone files a Committed run left out.
	Unchecked []File `json:"-"`
	// Text is what text output says beyond the document.
	Text Text `json:"-"`

	forget bool
}

// Text is what a run says in words besides the document.
type Text struct {
	Selection string   // which tools the run writes, and why
	NoTools   string   // why no tool was selected; empty when one was
	Policy    string   // the team policy in force, and why
	Grouped   []string // Warnings, what the tools cannot express said once per server and problem
}

// File is one file of a run.
type File struct {
	Path   string   `json:"path"`  // root-relative, ~/-relative or absolute
	Scope  string   `json:"scope"` // project, local, user; record, gitignore, state
	Tools  []string `json:"tools"`
	Status string   `json:"status"` // unchanged, stale (would change), written
	// PerClone: this clone's own under the per-clone policy, git-ignored.
	PerClone bool     `json:"per_clone,omitempty"`
	Changes  []Change `json:"changes"`
	Diff     string   `json:"diff,omitempty"` // DryRun
}

// Change is one thing a run does to a file: to an entry (add, update,
// remove, adopt, forget), or to the file (delete, untrack; Entry empty).
type Change struct {
	Action string `json:"action"`
	Entry  string `json:"entry,omitempty"`
	Reason string `json:"reason"`
}

// Kept is a file whose entries repo leaves though their tools are not
// selected, and why (Reason; for Forget: By, the staying tools).
type Kept struct {
	Path   string   `json:"path"`
	Scope  string   `json:"scope"`
	Tools  []string `json:"tools"`
	Reason string   `json:"reason"`
	By     []string `json:"-"`
}

// Yours is an entry of the user's own that already is what a server
// declares: repo leaves it to the user (AdoptNames takes it over), or, with
// Workspace, to the other workspace that holds it.
type Yours struct {
	Path      string   `json:"path"`
	Scope     string   `json:"scope"`
	Tools     []string `json:"tools"`
	Entry     string   `json:"entry"`
	Extension string   `json:"extension"`
	Workspace string   `json:"workspace,omitempty"`
}

// Shadow is a server repo writes under the name of an entry of the
// user's in another scope of the same tool; Wins says which one the tool
// uses (repo, yours).
type Shadow struct {
	Entry      string   `json:"entry"`
	Extension  string   `json:"extension"`
	Tools      []string `json:"tools"`
	Path       string   `json:"path"`
	Scope      string   `json:"scope"`
	Other      string   `json:"other_path"`
	OtherScope string   `json:"other_scope"`
	Wins       string   `json:"wins"`
}

// KeptEdit is a managed entry whose hand edits (Fields) a sync keeps.
type KeptEdit struct {
	Path   string   `json:"path"`
	Scope  string   `json:"scope"`
	Tools  []string `json:"tools"`
	Entry  string   `json:"entry"`
	Fields []string `json:"fields"`
}

// Untrusted is a server the user has not trusted that the run would write
// into local- or user-scope Files: Status new, or changed since trusted.
// Definition is what `repo trust` shows of it, line by line, to be shown
// before Trust.
type Untrusted struct {
	Server     string    `json:"server"`
	Extension  string    `json:"extension"`
	Status     string    `json:"status"`
	Transport  string    `json:"transport"`
	Command    string    `json:"command,omitempty"`
	Args       []string  `json:"args,omitempty"`
	URL        string    `json:"url,omitempty"`
	Files      []Reached `json:"files"`
	Definition []string  `json:"-"`

	digest string // of the definition shown, which Trust records
}

// Reached is a file outside the project scope a server would reach.
type Reached struct {
	Path  string   `json:"path"`
	Scope string   `json:"scope"`
	Tools []string `json:"tools"`
}

// Since is a server a writing project-scope sync wrote that is new or
// changed since the last sync here, and how the tools written start it.
type Since struct {
	Server           string   `json:"server"`
	Change           string   `json:"change"` // new, changed
	WithoutAsking    []string `json:"without_asking"`
	AfterFolderTrust []string `json:"after_folder_trust"`
	// OldApproval: tools whose approval, bound to the name, covers the
	// changed server.
	OldApproval []string `json:"old_approval,omitempty"`
}

// Policy is the team policy in force, and where each setting came from
// (default, config, flag).
type Policy struct {
	Portable      bool   `json:"portable"`
	PortableFrom  string `json:"portable_source"`
	Gitignore     bool   `json:"gitignore"`
	GitignoreFrom string `json:"gitignore_source"`
	Git           bool   `json:"git"` // the workspace is in a git work tree
}

// Tracked is a per-clone project file git tracks, which repo leaves as
// the repository has it: a settings file, or one to untrack (then also a
// stale file).
type Tracked struct {
	Path     string   `json:"path"`
	Tools    []string `json:"tools"`
	Settings bool     `json:"settings"`
	Message  string   `json:"message"`
	Fix      string   `json:"fix"`
}

// MarshalJSON writes the report as its schema has it: sync.v1, or for
// Forget forget.v1. <, > and & stay as they are; an encoder that escapes
// them for HTML escapes these bytes as any others.
func (r *Report) MarshalJSON() ([]byte, error) {
	var doc any = (*syncDoc)(r)
	if r.forget {
		kept := make([]forgetKept, len(r.Kept))
		for i, k := range r.Kept {
			kept[i] = forgetKept{Path: k.Path, Scope: k.Scope, Tools: k.Tools, By: k.By}
		}
		doc = forgetDoc{Version: r.Version, Mode: r.Mode, Root: r.Root, Tools: r.Tools, Scopes: r.Scopes,
			Files: r.Files, Kept: kept, Warnings: r.Warnings}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// syncDoc is a Report without its MarshalJSON.
type syncDoc Report

// forgetDoc is forget.v1.
type forgetDoc struct {
	Version  int          `json:"version"`
	Mode     string       `json:"mode"`
	Root     string       `json:"root"`
	Tools    []string     `json:"tools"`
	Scopes   []string     `json:"scopes"`
	Files    []File       `json:"files"`
	Kept     []forgetKept `json:"kept"`
	Warnings []string     `json:"warnings"`
}

type forgetKept struct {
	Path  string   `json:"path"`
	Scope string   `json:"scope"`
	Tools []string `json:"tools"`
	By    []string `json:"by"`
}

// File statuses.
const (
	statusUnchanged = "unchanged"
	statusStale     = "stale"
	statusWritten   = "written"
)

// fileOf is fp as a run reports it; with diff, its diff (plan.DiffText,
// the user's credentials redacted unless showSecrets).
func fileOf(fp *plan.FilePlan, status string, diff, showSecrets bool) File {
	fr := File{Path: fp.Display, Scope: string(fp.Scope), Tools: slices.Clone(fp.Tools), Changes: changesOf(fp.Changes), Status: status, PerClone: fp.PerClone}
	if fr.Tools == nil {
		fr.Tools = []string{}
	}
	if diff {
		fr.Diff = plan.DiffText(fp, showSecrets)
	}
	return fr
}

func changesOf(changes []plan.Change) []Change {
	out := make([]Change, len(changes))
	for i, c := range changes {
		out[i] = Change{Action: string(c.Action), Entry: c.Entry, Reason: string(c.Reason)}
	}
	return out
}

func policyOf(p teampolicy.Policy) *Policy {
	out := Policy(p)
	return &out
}

func untrustedOf(servers []trustgate.Server) []Untrusted {
	var out []Untrusted
	for _, s := range servers {
		u := Untrusted{Server: s.Server, Extension: s.Extension, Status: s.Status, Transport: s.Transport, Command: s.Command,
			Args: s.Args, URL: s.URL, Files: []Reached{}, Definition: s.Definition.Lines(), digest: s.Digest}
		for _, f := range s.Files {
			u.Files = append(u.Files, Reached(f))
		}
		out = append(out, u)
	}
	return out
}

// planned adds what a plan found besides files to the report: the user's
// entries repo leaves, the shadowed names, the kept hand edits.
func (rep *Report) planned(p *plan.Plan) {
	for _, y := range p.Yours {
		rep.Yours = append(rep.Yours, Yours{Path: y.File, Scope: string(y.Scope), Tools: y.Tools, Entry: y.Entry, Extension: y.Extension, Workspace: y.Workspace})
	}
	for _, s := range p.Shadows {
		rep.Shadows = append(rep.Shadows, Shadow{Entry: s.Entry, Extension: s.Extension, Tools: s.Tools, Path: s.File, Scope: string(s.Scope),
			Other: s.Other, OtherScope: string(s.OtherScope), Wins: s.Wins})
	}
	for _, k := range p.KeptEdits {
		rep.KeptEdits = append(rep.KeptEdits, KeptEdit{Path: k.File, Scope: string(k.Scope), Tools: k.Tools, Entry: k.Entry, Fields: k.Fields})
	}
	for _, fp := range p.Unchecked {
		rep.Unchecked = append(rep.Unchecked, fileOf(fp, statusUnchanged, false, false))
	}
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
