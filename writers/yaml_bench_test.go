package writers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/repo-manager/repo/bench/workload"
	"github.com/repo-manager/repo/internal/commit"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/toolprofiles"
)

// yamlSizes are the server counts of BenchmarkYAMLFirstSync;
// REPO_YAML_BENCH_SIZES=1000 overrides them.
var yamlSizes = func() []int {
	env := os.Getenv("REPO_YAML_BENCH_SIZES")
	if env == "" {
		return []int{1000, 2000, 10000}
	}
	var out []int
	for _, f := range strings.Split(env, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			panic("REPO_YAML_BENCH_SIZES: " + env)
		}
		out = append(out, n)
	}
	return out
}()

// gooseUserConfig is a ~/.config/goose/config.yaml as Goose writes it,
// with the user's own extensions and settings.
const gooseUserConfig = `GOOSE_PROVIDER: openai
GOOSE_MODEL: gpt-4o
GOOSE_MODE: smart_approve
extensions:
  developer:
    available_tools: []
    bundled: true
    description: null
    display_name: Developer
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  memory:
    args:
    - -y
    - '@modelcontextprotocol/server-memory'
    available_tools: []
    bundled: null
    cmd: npx
    description: null
    enabled: false
    env_keys: []
    envs: {}
    name: memory
    timeout: 300
    type: stdio
GOOSE_TOOLSHIM: false
GOOSE_CLI_THEME: dark`

// continueUserConfig is a hand-written ~/.continue/config.yaml with
// models, comments, a hub block and a server of the user's own.
const continueUserConfig = `name: Local Config
version: 1.0.0
schema: v1

# Models
models:
  - name: Claude
    provider: anthropic
    model: claude-sonnet-4
    apiKey: ${{ secrets.ANTHROPIC_API_KEY }}
    roles:
      - chat
      - edit
    chatOptions:
      baseSystemMessage: >-
        You are a careful assistant.
        Answer briefly.

# MCP servers
mcpServers:
  - uses: anthropic/memory-mcp
  - name: user-db   # my own server
    command: uvx
    args: ["mcp-server-sqlite", "--db-path", "/tmp/test.db"]

# context providers follow
context:
  - provider: code
`

// BenchmarkYAMLFirstSync plans the first sync of N servers into the user
// file of Goose (a map of extensions) and Continue (a list of servers):
// "empty" has no such file yet (repo starts from the profile's skeleton),
// "user" starts from a user's config. The plan parses the file, inserts
// every entry and verifies the result; nothing is written.
func BenchmarkYAMLFirstSync(b *testing.B) {
	tools := []struct {
		id, rel, user string
	}{
		{"goose", ".config/goose/config.yaml", gooseUserConfig},
		{"continue", ".continue/config.yaml", continueUserConfig},
	}
	base := b.TempDir()
	for _, n := range yamlSizes {
		var f *workload.Fixture // generated on first use, so that a -bench filter skips the others
		for _, tool := range tools {
			for _, host := range []string{"empty", "user"} {
				b.Run(fmt.Sprintf("%s/%s/n=%d", tool.id, host, n), func(b *testing.B) {
					if f == nil {
						var err error
						if f, err = workload.NewFixture(filepath.Join(base, strconv.Itoa(n)), workload.Options{N: n, Seed: 1}); err != nil {
							b.Fatal(err)
						}
					}
					p, err := workload.Profile(tool.id)
					if err != nil {
						b.Fatal(err)
					}
					profiles := []*toolprofiles.Profile{p}
					path := filepath.Join(f.Home, tool.rel)
					os.RemoveAll(filepath.Join(f.Home, ".local")) // the ownership record
					os.Remove(path)
					if host == "user" {
						if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
							b.Fatal(err)
						}
						if err := os.WriteFile(path, []byte(tool.user), 0o600); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportAllocs()
					b.ResetTimer()
					cpu := cpuTime()
					for b.Loop() {
						timed(func() {
							planFor, err := workload.Plan(f.Env, f.Servers, profiles, toolprofiles.ScopeUser)
							if err != nil {
								b.Fatal(err)
							}
							if len(planFor.Stale()) == 0 {
								b.Fatal("nothing to write")
							}
						})
					}
					reportCPU(b, cpuTime()-cpu)
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/server")
				})
			}
		}
	}
}

// BenchmarkYAMLNoopCheck is `repo sync --check` on the user files of
// BenchmarkYAMLFirstSync once synced: N managed entries to read and
// compare, nothing to write.
func BenchmarkYAMLNoopCheck(b *testing.B) {
	base := b.TempDir()
	for _, n := range yamlSizes {
		for _, id := range []string{"goose", "continue"} {
			b.Run(fmt.Sprintf("%s/n=%d", id, n), func(b *testing.B) {
				f, err := workload.NewFixture(filepath.Join(base, fmt.Sprintf("%s-%d", id, n)), workload.Options{N: n, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				p, err := workload.Profile(id)
				if err != nil {
					b.Fatal(err)
				}
				profiles := []*toolprofiles.Profile{p}
				planFor, err := workload.Plan(f.Env, f.Servers, profiles, toolprofiles.ScopeUser)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := commit.Apply(planFor); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				cpu := cpuTime()
				for b.Loop() {
					timed(func() {
						planFor, err := workload.PlanWith(f.Env, f.Servers, profiles, toolprofiles.ScopeUser, plan.Options{ReadOnly: true})
						if err != nil {
							b.Fatal(err)
						}
						if s := planFor.Stale(); len(s) != 0 {
							b.Fatalf("%d stale files after a sync", len(s))
						}
						planFor.Close()
					})
				}
				reportCPU(b, cpuTime()-cpu)
			})
		}
	}
}

// reportCPU reports the CPU time of the process per iteration (both
// cores, the garbage collector included), when the platform measures it.
func reportCPU(b *testing.B, cpu time.Duration) {
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}
