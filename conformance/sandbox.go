//go:build linux && repodev

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Sandbox keeps clients off the network. Preferred: a new network namespace (only a loopback
// interface) and a new PID namespace, so that every process a client leaves behind (MCP servers)
// dies with it. Fallback when unshare is not allowed: offline settings in the environment only.
type Sandbox struct {
	Mode   string // how: a network namespace, or "env only …"
	prefix []string
}

// loUp brings the loopback interface up inside the namespace (cn serve listens on localhost),
// then runs the command as a child, so the command is not PID 1 of the namespace.
const loUp = `ip link set lo up 2>/dev/null || ifconfig lo up 2>/dev/null; "$@"`

func detectSandbox(ctx context.Context, disabled bool) Sandbox {
	if disabled {
		return Sandbox{Mode: "env only (--no-netns)"}
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		return Sandbox{Mode: "env only (no unshare)"}
	}
	base := []string{"unshare", "--net", "--pid", "--fork", "--kill-child"}
	for _, c := range []struct {
		mode  string
		extra []string
	}{{"network namespace (unshare --net --pid; inside, only a loopback interface)", nil},
		{"network namespace in a user namespace (unshare --map-root-user --net --pid; inside, only a loopback interface)", []string{"--map-root-user"}}} {
		pre := append(append(append([]string{}, base...), c.extra...), "--", "sh", "-c", loUp, "sh")
		// Proof of isolation: inside, no interface but lo may exist.
		probe := append(append([]string{}, pre...), "cat", "/proc/net/dev")
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		out, err := exec.CommandContext(cctx, probe[0], probe[1:]...).Output()
		cancel()
		if err == nil && onlyLoopback(string(out)) {
			return Sandbox{Mode: c.mode, prefix: pre}
		}
	}
	return Sandbox{Mode: "env only (unshare not permitted)"}
}

func onlyLoopback(procNetDev string) bool {
	n := 0
	for _, ln := range strings.Split(procNetDev, "\n") {
		name, _, ok := strings.Cut(ln, ":")
		if !ok || strings.Contains(name, "|") {
			continue
		}
		if strings.TrimSpace(name) != "lo" {
			return false
		}
		n++
	}
	return n == 1
}

func (s Sandbox) isolated() bool { return len(s.prefix) > 0 }

func (s Sandbox) wrap(argv []string) []string {
	return append(append([]string{}, s.prefix...), argv...)
}

// offlineEnv is set for every client, isolated or not: no updates, no telemetry, and proxies
// that lead nowhere for anything that still tries.
var offlineEnv = []string{
	"DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1",
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "NO_BROWSER=1", "GEMINI_TELEMETRY_ENABLED=false",
	"COPILOT_AUTO_UPDATE=false", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1",
	"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_SHARE=1",
	"npm_config_offline=true", "npm_config_registry=http://127.0.0.1:9/", "npm_config_update_notifier=false",
	"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
	"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "NO_PROXY=localhost,127.0.0.1",
}

// Check is one client asked about one scope, with its own private HOME.
type Check struct {
	Client  Client
	Scope   string
	Project string // the synced workspace (absolute)
	Home    string // this check's private HOME
	Dir     string // working directory: the project, or an empty folder for user scope
	Tmp     string
	Version string
	Timeout time.Duration

	tb *Toolbox
	sb Sandbox
	vb func(format string, a ...any)
}

// Bin is the absolute path of the client's executable.
func (c *Check) Bin() string { return c.tb.bin(c.Client) }

// Env is the cleaned environment every client runs with: nothing from the caller's environment
// but the user name; PATH has Node ≥ 22, the client's own bin folder and the system folders.
func (c *Check) Env(extra ...string) []string {
	path := strings.Join([]string{c.tb.NodeDir, filepath.Dir(c.Bin()),
		"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}, ":")
	user := os.Getenv("USER")
	if user == "" {
		user = "conformance"
	}
	env := []string{"PATH=" + path, "HOME=" + c.Home, "USER=" + user, "LOGNAME=" + user,
		"LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "FORCE_COLOR=0",
		"TMPDIR=" + c.Tmp, "XDG_CACHE_HOME=" + c.tb.XDGCache}
	env = append(env, offlineEnv...)
	return append(env, extra...)
}

// Command prepares argv inside the sandbox, in c.Dir, in its own process group that is killed
// when ctx ends.
func (c *Check) Command(ctx context.Context, env []string, argv ...string) *exec.Cmd {
	return sandboxed(ctx, c.sb, c.Dir, c.Env(append(env, "CONF_TOKEN="+confToken)...), serveRemote(c.sb, c.Tmp, argv))
}

func sandboxed(ctx context.Context, sb Sandbox, dir string, env, argv []string) *exec.Cmd {
	full := sb.wrap(argv)
	cmd := exec.CommandContext(ctx, full[0], full[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 3 * time.Second
	return cmd
}

func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// Output of one client command.
type Output struct {
	Stdout, Stderr string
	Code           int
	TimedOut       bool
}

// All is stdout and stderr together (some clients print their list on stderr).
func (o Output) All() string { return o.Stdout + "\n" + o.Stderr }

// Run runs argv to completion (or c.Timeout), cleans the output and reaps what it left behind.
func (c *Check) Run(ctx context.Context, env []string, argv ...string) (Output, error) {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := c.Command(ctx, env, argv...)
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	_ = killGroup(cmd) // MCP servers the client left behind
	o := Output{Stdout: clean(out.String()), Stderr: clean(errb.String())}
	c.vb("%s %s: %s (%.1fs)", c.Client.ID(), c.Scope, strings.Join(argv, " "), time.Since(t0).Seconds())
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		o.TimedOut, o.Code = true, -1
		return o, fmt.Errorf("%s: timed out after %s", filepath.Base(argv[0]), c.Timeout)
	case errors.As(err, &ee):
		o.Code = ee.ExitCode()
		return o, nil
	case err != nil:
		return o, err
	}
	return o, nil
}
