package target

import "github.com/repo-manager/repo/toolprofiles"

// Scope is where a file is read: a profile's scope, or for a planned
// file that no tool reads, what the file is (plan.ScopeRecord,
// plan.ScopeGitignore).
type Scope string

// The scopes of tool profiles (toolprofiles.Scope*).
const (
	ScopeProject Scope = toolprofiles.ScopeProject // a file in the repository
	ScopeLocal   Scope = toolprofiles.ScopeLocal   // user-private, for this repository only
	ScopeUser    Scope = toolprofiles.ScopeUser    // global for the user
)

// Format is the syntax of a target file (toolprofiles.Format*), which
// picks its editor.
type Format string

// ContainerKind is how a target's server map holds its entries.
type ContainerKind string

// The container kinds (toolprofiles.Container*).
const (
	ContainerMap  ContainerKind = toolprofiles.ContainerMap  // {"<name>": {entry}}
	ContainerList ContainerKind = toolprofiles.ContainerList // [{name: "<name>", …entry}]
)
