package tomledit_test

import (
	"fmt"
	"testing"

	"github.com/repo-manager/repo/bench/workload"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/internal/tomledit"
)

var servers = []string{"mcp_servers"}

// codexEntries returns n servers as repo writes them into Codex's
// config.toml: command, args, env and env_vars, or url, http_headers and
// bearer_token_env_var. version changes every value.
func codexEntries(n int, version string) []tomledit.KeyValue {
	kvs := make([]tomledit.KeyValue, n)
	for i, s := range workload.Servers(n, 1) {
		var o ordered.Object
		if s.Kind == workload.KindRemote {
			o = o.Set("url", s.URL+version)
			o = o.Set("http_headers", ordered.Object{{Key: "X-Client", Value: "repo-bench"}})
			o = o.Set("bearer_token_env_var", "TOKEN")
		} else {
			o = o.Set("command", "/home/dev/w/.repository/extensions/"+s.Extension+"/.venv/bin/"+s.Command)
			o = o.Set("args", append(s.Args, version))
			if len(s.Env) > 0 {
				env := ordered.Object{}
				for _, kv := range s.Env {
					env = append(env, ordered.Member{Key: kv.Key, Value: kv.Value})
				}
				o = o.Set("env", env)
			}
			o = o.Set("env_vars", []string{"HOME_TOKEN"})
		}
		kvs[i] = tomledit.KeyValue{Name: s.Name, Value: ordered.JSON(o)}
	}
	return kvs
}

// BenchmarkBatch times the editor alone on the writes of a sync of N
// servers into Codex's config.toml: the first sync into a missing file
// (insert/empty) and into a user's own config (insert/user,
// workload.CodexConfig), then a new value for every server (replace) and
// the removal of all of them (delete), each one edit of the whole file.
// The sizes are those of issue 10; REPO_BENCH_CODEX_SIZES overrides them.
func BenchmarkBatch(b *testing.B) {
	for _, n := range workload.Sizes("REPO_BENCH_CODEX_SIZES", 1000, 2000, 10000) {
		v1, v2 := codexEntries(n, "v1"), codexEntries(n, "v2")
		names := make([]string, n)
		for i, kv := range v1 {
			names[i] = kv.Name
		}
		user, err := tomledit.Parse(workload.CodexConfig(40, 1))
		if err != nil {
			b.Fatal(err)
		}
		synced, err := user.Insert(servers, v1)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			edit func() (*tomledit.Doc, error)
		}{
			{"insert/empty", func() (*tomledit.Doc, error) { return tomledit.New().Insert(servers, v1) }},
			{"insert/user", func() (*tomledit.Doc, error) { return user.Insert(servers, v1) }},
			{"replace", func() (*tomledit.Doc, error) { return synced.Replace(servers, v2) }},
			{"delete", func() (*tomledit.Doc, error) { return synced.DeleteAll(servers, names) }},
		} {
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.edit(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/server")
			})
		}
	}
}
