package selection

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/repo-manager/repo/internal/workspace"
	"github.com/repo-manager/repo/toolprofiles"
)

// What shows that a tool is in use, per scope (profile detect, detect_user
// and binaries): a project file belongs to the workspace, so its markers
// decide; a user or local file belongs to the person on this machine, so
// the tool's own folders in the home folder or its executable on PATH
// decide, never a folder someone committed to the workspace.

// InWorkspace lists the profile's markers that exist in the workspace,
// as shown to people.
func InWorkspace(p *toolprofiles.Profile, w *workspace.Workspace) []string {
	var found []string
	for _, d := range p.Detect {
		path, err := toolprofiles.ExpandPath(d, w.Root, w.Env.Env)
		if err != nil {
			continue
		}
		if _, err := os.Lstat(path); err == nil {
			found = append(found, w.Env.Display(path))
		}
	}
	return found
}

// Machine is what says whether a tool is used on this machine.
type Machine struct {
	// Known: the profile says what to look for (detect_user or binaries).
	Known bool
	// Found lists what exists, as shown to people: the tool's folders and
	// files, then its executables on PATH (their full paths).
	Found []string
	// Looked lists what was looked for, as shown to people, for saying
	// why a tool counts as absent.
	Looked []string
}

// Installed reports that the tool shows on this machine.
func (e Machine) Installed() bool { return len(e.Found) > 0 }

// OnMachine looks for the profile's user-level evidence.
func OnMachine(p *toolprofiles.Profile, env toolprofiles.Env, display func(string) string) Machine {
	ev := Machine{Known: p.KnowsUserEvidence()}
	for _, d := range p.DetectUserFor(env.GOOS) {
		path, err := toolprofiles.ExpandPath(d, "", env)
		if err != nil {
			continue // a folder of another OS (${APPDATA}), or no home folder
		}
		ev.Looked = append(ev.Looked, display(path))
		if _, err := os.Stat(path); err == nil {
			ev.Found = append(ev.Found, display(path))
		}
	}
	for _, b := range p.Binaries {
		ev.Looked = append(ev.Looked, b+" on PATH")
		if path := LookPath(b, env); path != "" {
			ev.Found = append(ev.Found, display(path))
		}
	}
	return ev
}

// Absent says what was not found, for a tool that is not on this machine.
func (e Machine) Absent() string {
	var dirs, bins []string
	for _, l := range e.Looked {
		if name, ok := strings.CutSuffix(l, " on PATH"); ok {
			bins = append(bins, name)
		} else {
			dirs = append(dirs, l)
		}
	}
	var parts []string
	if len(dirs) > 0 {
		parts = append(parts, "no "+SafeList(dirs))
	}
	if len(bins) > 0 {
		parts = append(parts, strings.Join(bins, ", ")+" not on PATH")
	}
	return strings.Join(parts, "; ")
}

// LookPath finds an executable named name in the folders of env's PATH,
// as a shell would, and returns its path, or "". Unlike exec.LookPath it
// reads PATH from env (the Factory's environment) and never looks in the
// working directory for an empty or relative PATH entry.
func LookPath(name string, env toolprofiles.Env) string {
	if env.Getenv == nil {
		return ""
	}
	exts := []string{""}
	if env.GOOS == "windows" {
		exts = nil
		pathext := env.Getenv("PATHEXT")
		if pathext == "" {
			pathext = ".COM;.EXE;.BAT;.CMD"
		}
		for _, e := range strings.Split(pathext, ";") {
			if e != "" {
				exts = append(exts, strings.ToLower(e))
			}
		}
	}
	for _, dir := range filepath.SplitList(env.Getenv("PATH")) {
		if !filepath.IsAbs(dir) {
			continue
		}
		for _, ext := range exts {
			path := filepath.Join(dir, name+ext)
			fi, err := os.Stat(path)
			if err != nil || fi.IsDir() {
				continue
			}
			if env.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
				continue
			}
			return path
		}
	}
	return ""
}
