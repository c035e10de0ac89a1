package workspace

import (
	"fmt"
	"slices"
	"strings"

	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// IgnoredVar is a folder variable that repo ignores because it holds a
// relative path (see toolprofiles.Env.DirVar).
type IgnoredVar struct {
	Name, Value string
	Tools       []string // the selected tools whose files it starts; none for repo's own folders
	State       string   // for a state folder variable: the folder repo uses instead
}

// Message says what repo did with the variable.
func (v IgnoredVar) Message() string {
	return fmt.Sprintf("relative path %q ignored, as if unset (XDG Base Directory spec)", v.Value)
}

// Consequence says what the variable being relative means beyond repo.
func (v IgnoredVar) Consequence() string {
	switch {
	case len(v.Tools) > 0:
		return fmt.Sprintf("a tool that takes it as it is (%s) looks in another folder from each working directory", strings.Join(v.Tools, ", "))
	case v.State != "":
		return "repo keeps its records and locks in " + v.State
	}
	return "repo knows no home folder, so it cannot find per-user files"
}

// Fix is how to make the variable count.
func (v IgnoredVar) Fix() string {
	if len(v.Tools) == 0 && v.State == "" {
		return fmt.Sprintf("set %s to your home folder's absolute path", v.Name)
	}
	return fmt.Sprintf("set %s to an absolute path, or unset it", v.Name)
}

// IgnoredVars lists the folder variables that decide where this run's
// files live and that hold a relative path, so repo ignored them: the home
// folder's, the state folder's (ownership records, locks), and those that
// start the selected tools' files for the scope or the other files a tool
// reads (extra, by tool id).
func (h Host) IgnoredVars(env target.Env, profiles []*toolprofiles.Profile, scope string, extra map[string][]string) []IgnoredVar {
	out := h.ignoredHomes()
	var names []string
	tools := map[string][]string{}
	add := func(name, tool string) {
		if name == "" {
			return
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		if tool != "" && !slices.Contains(tools[name], tool) {
			tools[name] = append(tools[name], tool)
		}
	}
	for _, name := range plan.StateVars(env.GOOS) {
		add(name, "")
	}
	for _, p := range profiles {
		if t := p.Scopes.Get(scope); t != nil {
			for _, path := range t.PathsFor(env.GOOS) {
				add(toolprofiles.LeadingVar(path), p.ID)
			}
		}
		for _, path := range extra[p.ID] {
			add(toolprofiles.LeadingVar(path), p.ID)
		}
	}
	state := "the home folder"
	if dir, err := plan.StateDir(env); err == nil {
		state = env.Display(dir)
	}
	for _, name := range names {
		if _, ignored := env.DirVar(name); ignored {
			v := IgnoredVar{Name: name, Value: h.Getenv(name), Tools: tools[name]}
			if slices.Contains(plan.StateVars(env.GOOS), name) {
				v.State = state
			}
			out = append(out, v)
		}
	}
	return out
}

// ignoredHomes are the home folder's variables that hold a relative path,
// in the order Home reads them, up to the one it uses.
func (h Host) ignoredHomes() []IgnoredVar {
	homes := []string{"HOME"}
	if h.GOOS == "windows" {
		homes = []string{"USERPROFILE", "HOME"} // as Home reads them
	}
	var out []IgnoredVar
	for _, name := range homes {
		v := h.Getenv(name)
		if toolprofiles.Absolute(v) {
			break
		}
		if v != "" {
			out = append(out, IgnoredVar{Name: name, Value: v})
		}
	}
	return out
}
