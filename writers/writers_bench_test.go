package writers_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"testing"

	"github.com/repo-manager/repo/bench/workload"
	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/commit"
	"github.com/repo-manager/repo/internal/plan"
	"github.com/repo-manager/repo/internal/target"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/writers"
)

// benchSizes are the workspace sizes (extensions) of the planning
// benchmarks; REPO_BENCH_SIZES=1000,2000 overrides them.
var benchSizes = workload.Sizes("REPO_BENCH_SIZES", 10, 100, 300)

// codexSizes are the workspace sizes of the Codex user-scope benchmarks,
// those of issue 10 (a first sync of 2,000 servers took a minute, 10,000
// did not finish); REPO_BENCH_CODEX_SIZES overrides them.
var codexSizes = workload.Sizes("REPO_BENCH_CODEX_SIZES", 1000, 2000, 10000)

// timed runs f under the pprof label bench=timed, so that a profile can be
// cut to the timed work with -tagfocus=bench=timed (setup excluded).
func timed(f func()) {
	pprof.Do(context.Background(), pprof.Labels("bench", "timed"), func(context.Context) { f() })
}

func fixture(b *testing.B, n int) *workload.Fixture {
	b.Helper()
	f, err := workload.NewFixture(b.TempDir(), workload.Options{N: n, Seed: 1, Comments: true})
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkBuildTargets translates N servers for the 14 project-scope JSON
// tools and groups them by file.
func BenchmarkBuildTargets(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f := fixture(b, n)
			b.ReportAllocs()
			for b.Loop() {
				timed(func() {
					if _, _, err := target.Build(f.Servers, f.Profiles, toolprofiles.ScopeProject, f.Env); err != nil {
						b.Fatal(err)
					}
				})
			}
		})
	}
}

// BenchmarkPlanFirstSync is BuildTargets + Build on a workspace never
// synced: every entry is added to the user's existing files (13 files).
func BenchmarkPlanFirstSync(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f := fixture(b, n)
			b.ReportAllocs()
			for b.Loop() {
				timed(func() {
					p, err := workload.Plan(f.Env, f.Servers, f.Profiles, toolprofiles.ScopeProject)
					if err != nil {
						b.Fatal(err)
					}
					if len(p.Stale()) == 0 {
						b.Fatal("nothing to write")
					}
				})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/server")
		})
	}
}

// BenchmarkPlanApplyFirstSync plans and applies (atomic writes with fsync,
// read back) on a fresh copy of the workspace each time; the copy is not
// timed.
func BenchmarkPlanApplyFirstSync(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f := fixture(b, n)
			tmp := b.TempDir()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				root := filepath.Join(tmp, fmt.Sprint(i))
				if err := workload.CopyTree(f.Root, root); err != nil {
					b.Fatal(err)
				}
				env := workload.EnvFor(root, f.Home)
				servers := rootServers(b, root, f.Home)
				b.StartTimer()
				timed(func() {
					p, err := workload.Plan(env, servers, f.Profiles, toolprofiles.ScopeProject)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := commit.Apply(p); err != nil {
						b.Fatal(err)
					}
				})
			}
		})
	}
}

func rootServers(b *testing.B, root, home string) []extensions.Server {
	ws, err := extensions.Load(extensions.Options{Root: root, Home: home, GOOS: "linux"})
	if err != nil {
		b.Fatal(err)
	}
	return ws.Servers
}

// BenchmarkNoopCheck is the pre-commit path: BuildTargets + Build on an
// up-to-date workspace, which must find nothing to write.
func BenchmarkNoopCheck(b *testing.B) {
	for _, n := range append([]int{5}, benchSizes...) {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			f := fixture(b, n)
			p, err := workload.Plan(f.Env, f.Servers, f.Profiles, toolprofiles.ScopeProject)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := commit.Apply(p); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				timed(func() {
					p, err := workload.Plan(f.Env, f.Servers, f.Profiles, toolprofiles.ScopeProject)
					if err != nil {
						b.Fatal(err)
					}
					if s := p.Stale(); len(s) != 0 {
						b.Fatalf("%d stale files after a sync", len(s))
					}
				})
			}
		})
	}
}

// BenchmarkLocalClaude is Claude Code's local scope: N servers into
// projects[root].mcpServers of a large ~/.claude.json (the workspace's entry
// in the middle). plan = BuildTargets + Build; apply adds the atomic write
// (the file is restored between iterations, untimed); noop is --check on
// the synced file (a ReadOnly plan, as --check makes).
func BenchmarkLocalClaude(b *testing.B) {
	claude, err := workload.Profile("claude")
	if err != nil {
		b.Fatal(err)
	}
	profiles := []*toolprofiles.Profile{claude}
	base := b.TempDir() // outlives the sub-benchmarks that share a fixture
	cases := []struct{ mb, n int }{{10, 1}, {10, 5}, {10, 20}, {100, 1}, {100, 5}}
	for _, c := range cases {
		// Generated on first use, so that a -bench filter skips the others.
		var f *workload.Fixture
		var path string
		var orig []byte
		setup := func(b *testing.B) {
			if f != nil {
				return
			}
			var err error
			f, err = workload.NewFixture(filepath.Join(base, fmt.Sprintf("%dMB-n%d", c.mb, c.n)), workload.Options{N: c.n, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			path = filepath.Join(f.Home, ".claude.json")
			if _, err := workload.WriteClaudeJSONFile(path, workload.ClaudeOptions{Size: int64(c.mb) << 20, Root: filepath.ToSlash(f.Root), Seed: 1}); err != nil {
				b.Fatal(err)
			}
			if orig, err = os.ReadFile(path); err != nil {
				b.Fatal(err)
			}
		}
		restore := func(b *testing.B) {
			if err := os.WriteFile(path, orig, 0o600); err != nil {
				b.Fatal(err)
			}
			os.RemoveAll(filepath.Join(f.Home, ".local"))
		}
		name := fmt.Sprintf("%dMB/n=%d", c.mb, c.n)
		b.Run("plan/"+name, func(b *testing.B) {
			setup(b)
			restore(b)
			b.ResetTimer()
			b.SetBytes(int64(len(orig)))
			b.ReportAllocs()
			for b.Loop() {
				timed(func() {
					if _, err := workload.Plan(f.Env, f.Servers, profiles, toolprofiles.ScopeLocal); err != nil {
						b.Fatal(err)
					}
				})
			}
		})
		b.Run("plan+apply/"+name, func(b *testing.B) {
			setup(b)
			b.ResetTimer()
			b.SetBytes(int64(len(orig)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				restore(b)
				b.StartTimer()
				timed(func() {
					p, err := workload.Plan(f.Env, f.Servers, profiles, toolprofiles.ScopeLocal)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := commit.Apply(p); err != nil {
						b.Fatal(err)
					}
				})
			}
		})
		b.Run("noop/"+name, func(b *testing.B) {
			setup(b)
			restore(b)
			p, err := workload.Plan(f.Env, f.Servers, profiles, toolprofiles.ScopeLocal)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := commit.Apply(p); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			b.SetBytes(int64(len(orig)))
			b.ReportAllocs()
			for b.Loop() {
				timed(func() {
					p, err := workload.PlanWith(f.Env, f.Servers, profiles, toolprofiles.ScopeLocal, plan.Options{ReadOnly: true})
					if err != nil {
						b.Fatal(err)
					}
					if s := p.Stale(); len(s) != 0 {
						b.Fatalf("%d stale files after a sync", len(s))
					}
					p.Close()
				})
			}
		})
	}
}

// BenchmarkCheckExample is everything `repo sync --check` does in-process
// on a synced copy of examples/workspace with its [mcp] tools: load the
// tool profiles (compiled in from profiles/*.toml), the config and the extensions, then
// BuildTargets + Build. The parts are also timed alone.
func BenchmarkCheckExample(b *testing.B) {
	root := filepath.Join(b.TempDir(), "ws")
	if err := workload.CopyTree(filepath.Join("..", "examples", "workspace"), root); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	env := workload.EnvFor(root, home)
	load := func() ([]*toolprofiles.Profile, []extensions.Server) {
		set, err := toolprofiles.Load(root, toolprofiles.Env{})
		if err != nil {
			b.Fatal(err)
		}
		cfg, err := extensions.LoadConfig(root)
		if err != nil {
			b.Fatal(err)
		}
		var profiles []*toolprofiles.Profile
		for _, id := range cfg.Tools {
			if p := set.Get(id); p != nil && p.Scopes.Get(toolprofiles.ScopeProject) != nil {
				profiles = append(profiles, p)
			}
		}
		ws, err := extensions.Load(extensions.Options{Root: root, Home: home, GOOS: env.GOOS})
		if err != nil {
			b.Fatal(err)
		}
		return profiles, ws.Servers
	}
	profiles, servers := load()
	p, err := workload.Plan(env, servers, profiles, toolprofiles.ScopeProject)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := commit.Apply(p); err != nil {
		b.Fatal(err)
	}
	b.Run("profiles", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			timed(func() {
				if _, err := toolprofiles.Load(root, toolprofiles.Env{}); err != nil {
					b.Fatal(err)
				}
			})
		}
	})
	b.Run("extensions", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			timed(func() {
				if _, err := extensions.LoadConfig(root); err != nil {
					b.Fatal(err)
				}
				if _, err := extensions.Load(extensions.Options{Root: root, Home: home, GOOS: env.GOOS}); err != nil {
					b.Fatal(err)
				}
			})
		}
	})
	b.Run("plan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			timed(func() {
				p, err := workload.Plan(env, servers, profiles, toolprofiles.ScopeProject)
				if err != nil {
					b.Fatal(err)
				}
				if len(p.Stale()) != 0 {
					b.Fatal("stale after sync")
				}
			})
		}
	})
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			timed(func() {
				profiles, servers := load()
				p, err := workload.Plan(env, servers, profiles, toolprofiles.ScopeProject)
				if err != nil {
					b.Fatal(err)
				}
				if len(p.Stale()) != 0 {
					b.Fatal("stale after sync")
				}
			})
		}
	})
}

// BenchmarkPlanChangeAll plans a sync in which every managed entry changes
// on an up-to-date workspace (14+ files): "update" gives every server one
// more argument (as an extension upgrade would), "remove" declares no
// servers any more (every entry is deleted).
func BenchmarkPlanChangeAll(b *testing.B) {
	for _, n := range benchSizes {
		f := fixture(b, n)
		p, err := workload.Plan(f.Env, f.Servers, f.Profiles, toolprofiles.ScopeProject)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := commit.Apply(p); err != nil {
			b.Fatal(err)
		}
		updated := make([]extensions.Server, len(f.Servers))
		for i, s := range f.Servers {
			s.Args = append(append([]string(nil), s.Args...), "--bench-v2")
			if s.Remote() {
				s.URL += "?v=2"
			}
			updated[i] = s
		}
		for _, c := range []struct {
			name    string
			servers []extensions.Server
		}{{"update", updated}, {"remove", nil}} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					timed(func() {
						p, err := workload.Plan(f.Env, c.servers, f.Profiles, toolprofiles.ScopeProject)
						if err != nil {
							b.Fatal(err)
						}
						if len(p.Stale()) == 0 {
							b.Fatal("nothing to write")
						}
					})
				}
			})
		}
	}
}

// BenchmarkPlanCodex plans `repo sync --scope user --tool codex` on a
// workspace of N extensions, whose servers all go into one
// ~/.codex/config.toml:
//   - first/empty: the file does not exist yet;
//   - first/user: it is a user's own config (workload.CodexConfig: settings,
//     40 trusted projects, two servers of the user's);
//   - update: the user file after a first sync, every server given one more
//     argument (an upgrade of every extension);
//   - remove: the same, with no server declared any more (every entry goes).
//
// Each case is linear in N when the TOML editor edits all entries at once.
func BenchmarkPlanCodex(b *testing.B) {
	codex, err := workload.Profile("codex")
	if err != nil {
		b.Fatal(err)
	}
	profiles := []*toolprofiles.Profile{codex}
	for _, n := range codexSizes {
		f, err := workload.NewFixture(b.TempDir(), workload.Options{N: n, Seed: 1, Tools: []string{"claude"}})
		if err != nil {
			b.Fatal(err)
		}
		config := filepath.Join(f.Home, ".codex", "config.toml")
		planFor := func(b *testing.B, servers []extensions.Server) {
			b.Helper()
			b.ReportAllocs()
			for b.Loop() {
				timed(func() {
					p, err := workload.Plan(f.Env, servers, profiles, toolprofiles.ScopeUser)
					if err != nil {
						b.Fatal(err)
					}
					if len(p.Stale()) == 0 {
						b.Fatal("nothing to write")
					}
				})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/server")
		}
		b.Run(fmt.Sprintf("first/empty/n=%d", n), func(b *testing.B) {
			if err := os.RemoveAll(filepath.Dir(config)); err != nil {
				b.Fatal(err)
			}
			planFor(b, f.Servers)
		})
		if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(config, workload.CodexConfig(40, 1), 0o600); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("first/user/n=%d", n), func(b *testing.B) { planFor(b, f.Servers) })
		p, err := workload.Plan(f.Env, f.Servers, profiles, toolprofiles.ScopeUser)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := commit.Apply(p); err != nil {
			b.Fatal(err)
		}
		updated := make([]extensions.Server, len(f.Servers))
		for i, s := range f.Servers {
			s.Args = append(append([]string(nil), s.Args...), "--bench-v2")
			if s.Remote() {
				s.URL += "?v=2"
			}
			updated[i] = s
		}
		b.Run(fmt.Sprintf("update/n=%d", n), func(b *testing.B) { planFor(b, updated) })
		b.Run(fmt.Sprintf("remove/n=%d", n), func(b *testing.B) { planFor(b, nil) })
	}
}

// BenchmarkRunCheckExample is `repo sync --check` of a synced copy of
// examples/workspace through the door, as the command line runs it
// (writers.Run with ModeCheck: config, selection, leaving tools, records,
// plan): the in-process part of the no-op check that bench/startup.sh
// times as a process.
func BenchmarkRunCheckExample(b *testing.B) {
	root := filepath.Join(b.TempDir(), "ws")
	if err := workload.CopyTree(filepath.Join("..", "examples", "workspace"), root); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	opts := writers.Options{Root: root, Getenv: func(name string) string {
		if name == "HOME" {
			return home
		}
		return ""
	}}
	if _, err := writers.Run(context.Background(), opts); err != nil {
		b.Fatal(err)
	}
	opts.Mode = writers.Check
	b.ReportAllocs()
	for b.Loop() {
		timed(func() {
			rep, err := writers.Run(context.Background(), opts)
			if err != nil {
				b.Fatal(err)
			}
			if rep.Stale {
				b.Fatalf("the synced example is stale: %+v", rep.Files)
			}
		})
	}
}
