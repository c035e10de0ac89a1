//go:build linux && repodev

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Toolbox is the cache folder with Node and the clients, one npm prefix per client:
//
//	<cache>/node/           Node ≥ 22 from npm (node-linux-<arch>@22), when the system node is older
//	<cache>/pkgs/<slug>/    one npm prefix per client; <slug>.log is its npm output
//	<cache>/xdg-cache/      XDG_CACHE_HOME of every client run (Copilot unpacks its runtime there)
//	<cache>/npm-cache/      npm's download cache
type Toolbox struct {
	Cache       string
	NodeDir     string // folder with the node binary every client runs with
	NodeVersion string
	NodeSource  string
	XDGCache    string
	Clients     map[string]*Installed
}

// Installed is one client in the cache.
type Installed struct {
	Package string
	Version string // from its package.json
	Reports string // what `<bin> --version` printed (first version number)
	Prefix  string
	Err     error
}

func (tb *Toolbox) bin(c Client) string {
	in := tb.Clients[c.ID()]
	if in == nil {
		return c.Install().Bin
	}
	if p := c.Install().Path; p != "" {
		return filepath.Join(in.Prefix, "node_modules", filepath.FromSlash(p))
	}
	return filepath.Join(in.Prefix, "node_modules", ".bin", c.Install().Bin)
}

var versionRE = regexp.MustCompile(`\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]*[0-9A-Za-z])?`)

// installClients makes sure Node ≥ 22 and every selected client at its pinned version are in the
// cache; what is already there at the right version is reused. With offline set (quick runs) it
// installs nothing and uses whatever version is there.
func installClients(ctx context.Context, cache string, clients []Client, pins map[string]string,
	update, offline bool, sb Sandbox, logf func(string, ...any)) (*Toolbox, error) {
	tb := &Toolbox{Cache: cache, XDGCache: filepath.Join(cache, "xdg-cache"), Clients: map[string]*Installed{}}
	for _, d := range []string{cache, tb.XDGCache, filepath.Join(cache, "pkgs"), filepath.Join(cache, "home")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if err := tb.ensureNode(ctx, offline, logf); err != nil {
		return nil, err
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 3)
	var mu sync.Mutex
	for _, c := range clients {
		spec := c.Install()
		want := spec.Version
		if p, ok := pins[c.ID()]; ok {
			want = p
		}
		in := &Installed{Package: spec.Package, Prefix: filepath.Join(cache, "pkgs", slug(spec.Package))}
		mu.Lock()
		tb.Clients[c.ID()] = in
		mu.Unlock()
		wg.Add(1)
		go func(c Client, in *Installed, want string) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			have := packageVersion(in.Prefix, in.Package)
			switch {
			case offline && have == "":
				in.Err = fmt.Errorf("not installed in %s (run once without --quick)", in.Prefix)
			case offline, !update && have != "" && (have == want || want == "latest"):
				logf("reuse %s %s", in.Package, have)
			default:
				t0 := time.Now()
				logf("npm install %s@%s …", in.Package, want)
				if err := tb.npmInstall(ctx, in.Prefix, in.Package+"@"+want); err != nil {
					in.Err = err
					return
				}
				logf("installed %s@%s (%.0fs)", in.Package, packageVersion(in.Prefix, in.Package), time.Since(t0).Seconds())
			}
			if in.Err != nil {
				return
			}
			in.Version = packageVersion(in.Prefix, in.Package)
			in.Reports, in.Err = tb.smoke(ctx, c, sb)
		}(c, in, want)
	}
	wg.Wait()
	return tb, nil
}

// ensureNode finds a Node ≥ 22: the system one, else node-linux-<arch>@22 from npm. With an older
// Node, npm silently resolves old versions of claude-code and qwen-code (their engines field).
func (tb *Toolbox) ensureNode(ctx context.Context, offline bool, logf func(string, ...any)) error {
	if p, err := exec.LookPath("node"); err == nil {
		if v := nodeVersion(p); nodeMajor(v) >= 22 {
			tb.NodeDir, tb.NodeVersion, tb.NodeSource = filepath.Dir(p), v, "system"
			return nil
		}
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" || runtime.GOOS != "linux" {
		return fmt.Errorf("no Node ≥ 22 on PATH and no npm Node package for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	pkg := "node-linux-" + arch
	prefix := filepath.Join(tb.Cache, "node")
	bin := filepath.Join(prefix, "node_modules", pkg, "bin", "node")
	if v := nodeVersion(bin); nodeMajor(v) < 22 {
		if offline {
			//lint:ignore ST1005 Node is a name
			return fmt.Errorf("Node ≥ 22 not in %s (run once without --quick)", prefix)
		}
		logf("npm install %s@22 (the system Node is older than 22) …", pkg)
		if err := tb.npmInstall(ctx, prefix, pkg+"@22"); err != nil {
			return fmt.Errorf("installing Node 22: %w", err)
		}
	}
	v := nodeVersion(bin)
	if nodeMajor(v) < 22 {
		return fmt.Errorf("%s does not run", bin)
	}
	tb.NodeDir, tb.NodeVersion, tb.NodeSource = filepath.Dir(bin), v, "npm "+pkg+"@22"
	return nil
}

func nodeVersion(bin string) string {
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func nodeMajor(v string) int {
	n, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(v, "v"), ".", 2)[0])
	return n
}

// npmInstall installs spec into prefix with the system npm running on our Node (so that the
// engines checks see Node ≥ 22). It uses the user's npm configuration (registry, proxy) and
// keeps npm's download cache in the cache folder.
func (tb *Toolbox) npmInstall(ctx context.Context, prefix, spec string) error {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("npm not found on PATH")
	}
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		return err
	}
	logPath := prefix + ".log"
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", prefix, "--save-exact", "--no-audit", "--no-fund", spec)
	env := os.Environ()
	if tb.NodeDir != "" {
		env = append(env, "PATH="+tb.NodeDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	cmd.Env = append(env, "npm_config_cache="+filepath.Join(tb.Cache, "npm-cache"),
		"npm_config_update_notifier=false", "npm_config_loglevel=warn")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm install %s failed (%v); see %s", spec, err, logPath)
	}
	return nil
}

// smoke runs `<bin> --version` offline: a client only counts as installed if it starts.
// (Copilot unpacks its runtime into XDG_CACHE_HOME on this first start.)
func (tb *Toolbox) smoke(ctx context.Context, c Client, sb Sandbox) (string, error) {
	home := filepath.Join(tb.Cache, "home")
	chk := &Check{Client: c, Home: home, Dir: home, Tmp: os.TempDir(), Timeout: 90 * time.Second,
		tb: tb, sb: sb, vb: func(string, ...any) {}}
	o, err := chk.Run(ctx, nil, chk.Bin(), "--version")
	if err != nil {
		return "", fmt.Errorf("`%s --version`: %v", c.Install().Bin, err)
	}
	v := versionRE.FindString(o.Stdout)
	if v == "" || o.Code != 0 {
		return "", fmt.Errorf("`%s --version` does not run: exit %d: %s", c.Install().Bin, o.Code, oneLine(o.All(), 300))
	}
	return v, nil
}

// packageVersion reads the installed version of pkg in an npm prefix ("" if absent).
func packageVersion(prefix, pkg string) string {
	b, err := os.ReadFile(filepath.Join(prefix, "node_modules", filepath.FromSlash(pkg), "package.json"))
	if err != nil {
		return ""
	}
	var p struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &p) != nil {
		return ""
	}
	return p.Version
}

func slug(pkg string) string { return strings.NewReplacer("/", "_", "@", "_").Replace(pkg) }
