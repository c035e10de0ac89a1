package workload

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
)

// Fixture is a generated workspace, loaded the way `repo sync` loads it,
// for the Go benchmarks.
type Fixture struct {
	Root     string
	Home     string
	Env      target.Env
	Profiles []*toolprofiles.Profile // the workspace's [mcp] tools, in that order
	Servers  []extensions.Server
	Result   *Result
}

// NewFixture generates a workspace at dir/ws with its home at dir/home
// and loads it.
func NewFixture(dir string, o Options) (*Fixture, error) {
	root, home := filepath.Join(dir, "ws"), filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	if o.Home == "" {
		o.Home = home
	}
	res, err := Generate(root, o)
	if err != nil {
		return nil, err
	}
	f := &Fixture{Root: res.Root, Home: home, Result: res}
	f.Env = EnvFor(f.Root, home)
	set, err := toolprofiles.Load(f.Root, f.Env.Env)
	if err != nil {
		return nil, err
	}
	for _, t := range res.Tools {
		f.Profiles = append(f.Profiles, set.Get(t.ID))
	}
	if err := f.Reload(); err != nil {
		return nil, err
	}
	return f, nil
}

// Reload reads the extensions again (after the fixture moved).
func (f *Fixture) Reload() error {
	ws, err := extensions.Load(extensions.Options{Root: f.Root, Home: f.Home, GOOS: runtime.GOOS})
	if err != nil {
		return err
	}
	f.Servers = ws.Servers
	return nil
}

// EnvFor is the path environment of a run with HOME=home and no other
// variables set.
func EnvFor(root, home string) target.Env {
	return target.Env{Root: root, Env: toolprofiles.Env{Home: home, GOOS: runtime.GOOS, Getenv: func(string) string { return "" }}}
}

// Profile returns a builtin profile by id.
func Profile(id string) (*toolprofiles.Profile, error) {
	set, err := toolprofiles.Builtin()
	if err != nil {
		return nil, err
	}
	p := set.Get(id)
	if p == nil {
		return nil, fmt.Errorf("no profile %q", id)
	}
	return p, nil
}

// Plan runs what `repo sync` runs before writing: BuildTargets and Build.
func Plan(env target.Env, servers []extensions.Server, profiles []*toolprofiles.Profile, scope target.Scope) (*plan.Plan, error) {
	return PlanWith(env, servers, profiles, scope, plan.Options{})
}

// PlanWith is Plan with options: ReadOnly for what `repo sync --check` runs.
func PlanWith(env target.Env, servers []extensions.Server, profiles []*toolprofiles.Profile, scope target.Scope, opts plan.Options) (*plan.Plan, error) {
	targets, _, err := target.Build(servers, profiles, scope, env)
	if err != nil {
		return nil, err
	}
	return plan.Build(env, targets, opts)
}

// CopyTree copies the regular files and folders under src to dst, keeping
// file modes.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(target, info.Mode().Perm())
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, info.Mode().Perm())
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// Sizes reads the sizes of a benchmark from the environment variable env,
// a comma-separated list (REPO_BENCH_SIZES=1000,2000), or returns def.
func Sizes(env string, def ...int) []int {
	v := os.Getenv(env)
	if v == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			panic(env + ": " + v)
		}
		out = append(out, n)
	}
	return out
}
