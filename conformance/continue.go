//go:build linux && repodev

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
)

// continueCLI: Continue's CLI, cn. It reads only ~/.continue/config.yaml and has no command that
// lists servers; `cn serve` (headless) connects every server at startup and aborts if one fails,
// logging why in ~/.continue/logs/cn.log. It needs a model to start: the check gives the private
// copy of the config an offline dummy model. A server counts as connected when cn started
// serving without an error for it and its process is running under cn.
type continueCLI struct{}

func (continueCLI) ID() string       { return "cn" }
func (continueCLI) Name() string     { return "Continue CLI (cn)" }
func (continueCLI) Tool() string     { return "continue" }
func (continueCLI) Scopes() []string { return []string{ScopeUser} }
func (continueCLI) Install() InstallSpec {
	return InstallSpec{Package: "@continuedev/cli", Version: "1.5.47", Bin: "cn"}
}
func (continueCLI) Files(scope string) []string {
	if scope == ScopeProject {
		return []string{".continue/mcpServers/repo-managed.yaml"}
	}
	return []string{".continue/config.yaml"}
}

const cnDummyModel = `
# Added by the conformance harness to its private copy: cn serve needs a model (never contacted).
models:
  - name: conformance-offline
    provider: openai
    model: gpt-4o
    apiKey: none
    apiBase: http://127.0.0.1:9/v1
`

var topModels = regexp.MustCompile(`(?m)^models\s*:`)

func (continueCLI) Prepare(c *Check) error {
	path := filepath.Join(c.Home, ".continue", "config.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("no ~/.continue/config.yaml (without it cn fetches a remote default config): %w", err)
	}
	if topModels.Match(b) {
		return nil
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return os.WriteFile(path, append(b, cnDummyModel...), 0o644)
}

type cnServer struct {
	Name    string   `yaml:"name"`
	Command string   `yaml:"command"`
	Args    []string `yaml:"args"`
	URL     string   `yaml:"url"`
}

var (
	cnFailure   = regexp.MustCompile(`Failed to connect to MCP server (\{.*\})`)
	cnRejection = regexp.MustCompile(`Unhandled Promise Rejection .*?"error":"(.*?)"\}`)
)

func (cn continueCLI) List(ctx context.Context, c *Check) (*Result, error) {
	r := &Result{}
	cfgPath := filepath.Join(c.Home, ".continue", "config.yaml")
	raw, err := os.ReadFile(cfgPath)
	if err != nil {
		return r, err
	}
	var cfg struct {
		MCPServers []cnServer `yaml:"mcpServers"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		r.note("config.yaml does not parse: " + err.Error())
	}
	logPath := filepath.Join(c.Home, ".continue", "logs", "cn.log")
	_ = os.MkdirAll(filepath.Dir(logPath), 0o755)
	_ = os.WriteFile(logPath, nil, 0o644)

	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	var out syncBuffer
	cmd := c.Command(ctx, nil, c.Bin(), "serve", "--verbose", "--port", strconv.Itoa(freePort()))
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return r, err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	started, fatal := false, ""
	var running map[string]bool
	tick := time.NewTicker(200 * time.Millisecond)
wait:
	for {
		select {
		case <-tick.C:
		case <-exited:
			fatal = "cn serve exited: " + oneLine(out.String(), 300)
			break wait
		case <-ctx.Done():
			fatal = "timed out waiting for cn serve to start"
			break wait
		}
		lg, _ := os.ReadFile(logPath)
		if strings.Contains(out.String(), "Server started") {
			started = true
			running = cnServersRunning(cmd.Process.Pid, cfg.MCPServers)
			c.vb("cn: server processes found: %v", running)
			break
		}
		if m := cnRejection.FindSubmatch(lg); m != nil {
			fatal = strings.ReplaceAll(string(m[1]), `\n`, " ")
			break
		}
		if bytes.Contains(lg, []byte("Failed to initialize MCPService")) && !bytes.Contains(lg, []byte("Failed to connect to MCP server")) {
			fatal = "MCP service failed to initialize"
			break
		}
	}
	tick.Stop()
	_ = killGroup(cmd)
	<-exited
	lg, _ := os.ReadFile(logPath)
	r.Output = out.String() + "\n--- ~/.continue/logs/cn.log (errors)\n" + grepLines(string(lg), "[error]", "[warn]: Failed")
	failed := map[string]string{}
	for _, m := range cnFailure.FindAllStringSubmatch(string(lg), -1) {
		var e struct {
			Error struct {
				Name  string `json:"name"`
				Error any    `json:"error"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(m[1]), &e) == nil {
			failed[e.Error.Name] = fmt.Sprint(e.Error.Error)
		}
	}
	mcpOnly := len(failed) > 0 // cn aborts once every server is settled; the failures say which
	for _, s := range cfg.MCPServers {
		name := s.Name
		switch why, bad := failed[name]; {
		case bad:
			r.Records = append(r.Records, Record{Server: name, Scope: ScopeUser, Status: Failed, Detail: oneLine(why, 300)})
		case started && s.URL == "" && !running[name]:
			r.Records = append(r.Records, Record{Server: name, Scope: ScopeUser, Status: Failed,
				Detail: "cn started without an error for it, but no process of it runs under cn"})
		case started || mcpOnly:
			r.Records = append(r.Records, Record{Server: name, Scope: ScopeUser, Status: Connected})
		default:
			r.Records = append(r.Records, Record{Server: name, Scope: ScopeUser, Status: Pending, Detail: oneLine(fatal, 300)})
		}
	}
	if fatal != "" && !mcpOnly {
		return r, fmt.Errorf("%s", fatal)
	}
	return r, nil
}

// cnServersRunning finds, among the descendants of pid, the process of each stdio server.
func cnServersRunning(pid int, servers []cnServer) map[string]bool {
	found := map[string]bool{}
	for _, argv := range descendants(pid) {
		for _, s := range servers {
			if s.Command != "" && len(argv) >= 1+len(s.Args) &&
				filepath.Base(argv[0]) == filepath.Base(s.Command) &&
				strings.Join(argv[len(argv)-len(s.Args):], "\x00") == strings.Join(s.Args, "\x00") {
				found[s.Name] = true
			}
		}
	}
	return found
}

// descendants lists the command lines of every process below pid (from /proc).
func descendants(pid int) [][]string {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may contain spaces and parentheses
		i := bytes.LastIndexByte(st, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(st[i+1:]))
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out [][]string
	for p := range parent {
		for q, n := p, 0; q > 1 && n < 64; q, n = parent[q], n+1 {
			if parent[q] == pid {
				if b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p), "cmdline")); err == nil {
					out = append(out, strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"))
				}
				break
			}
		}
	}
	return out
}

func freePort() int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 38817
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func grepLines(s string, subs ...string) string {
	var out []string
	for _, ln := range strings.Split(s, "\n") {
		for _, sub := range subs {
			if strings.Contains(ln, sub) {
				out = append(out, ln)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}
