package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
	"github.com/repo-manager/repo/writers/plan"
)

// ignoredVar is a folder variable that repo ignores because it holds a
// relative path (see toolprofiles.Env.DirVar).
type ignoredVar struct {
	name, value string
	tools       []string // the selected tools whose files it starts; none for repo's own folders
	state       string   // for a state folder variable: the folder repo uses instead
}

// message says what repo did with the variable.
func (v ignoredVar) message() string {
	return fmt.Sprintf("relative path %q ignored, as if unset (XDG Base Directory spec)", v.value)
}

// consequence says what the variable being relative means beyond repo.
func (v ignoredVar) consequence() string {
	switch {
	case len(v.tools) > 0:
		return fmt.Sprintf("a tool that takes it as it is (%s) looks in another folder from each working directory", strings.Join(v.tools, ", "))
	case v.state != "":
		return "repo keeps its records and locks in " + v.state
	}
	return "repo knows no home folder, so it cannot find per-user files"
}

// fix is how to make the variable count.
func (v ignoredVar) fix() string {
	if len(v.tools) == 0 && v.state == "" {
		return fmt.Sprintf("set %s to your home folder's absolute path", v.name)
	}
	return fmt.Sprintf("set %s to an absolute path, or unset it", v.name)
}

// ignoredVars lists the folder variables that decide where this run's
// files live and that hold a relative path, so repo ignored them: the home
// folder's, the state folder's (ownership records, locks), and those that
// start the selected tools' files for the scope or the other files a tool
// reads (extra, by tool id).
func ignoredVars(f *Factory, env writers.Env, profiles []*toolprofiles.Profile, scope string, extra map[string][]string) []ignoredVar {
	var out []ignoredVar
	homes := []string{"HOME"}
	if f.GOOS == "windows" {
		homes = []string{"USERPROFILE", "HOME"} // as Factory.Home reads them
	}
	for _, name := range homes {
		v := f.Getenv(name)
		if toolprofiles.Absolute(v) {
			break
		}
		if v != "" {
			out = append(out, ignoredVar{name: name, value: v})
		}
	}
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
			v := ignoredVar{name: name, value: f.Getenv(name), tools: tools[name]}
			if slices.Contains(plan.StateVars(env.GOOS), name) {
				v.state = state
			}
			out = append(out, v)
		}
	}
	return out
}
