//go:build repodev

// Command gen writes a benchmark workload (see bench/workload):
//
//	go run -tags repodev ./bench/gen -out DIR -n 100 [-seed 1] [-tools claude,cursor] [-comments=false] [-peers]
//	                   [-claude-json-mb 100 -home HOME]
//
// -out is the workspace root to create. -tools none writes no project tool
// and no user config (for user-scope runs, which name their tool with
// --tool). -claude-json-mb writes HOME/.claude.json
// of that size with projects[<abs DIR>] in the middle. -servers-json FILE
// also writes the workspace's servers as Claude Code local-scope entries
// (what `repo sync --scope local --tool claude` adds), for jq to merge.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/repo-manager/repo/bench/workload"
	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/internal/ordered"
	"github.com/repo-manager/repo/toolprofiles"
	"github.com/repo-manager/repo/translator"
)

func main() {
	out := flag.String("out", "", "workspace root to create (required)")
	n := flag.Int("n", 20, "number of extensions (one server each)")
	seed := flag.Uint64("seed", 1, "random seed")
	tools := flag.String("tools", "", "comma-separated project tools (repo ids), or none; default: every project-scope JSON tool")
	comments := flag.Bool("comments", true, "comments and trailing commas in user configs where the format allows")
	peers := flag.Bool("peers", false, "also write .ruler/ruler.toml and .rulesync/mcp.json with the same servers")
	mb := flag.Float64("claude-json-mb", 0, "write HOME/.claude.json of this many MB (0: none)")
	home := flag.String("home", "", "home folder for -claude-json-mb and <<home>> (default $HOME)")
	serversJSON := flag.String("servers-json", "", "write the servers as Claude local-scope entries to this file (for jq)")
	listTools := flag.Bool("list-tools", false, "print the project-scope JSON tools and the peers' common tools, then exit")
	flag.Parse()

	if *listTools {
		ts, err := workload.ProjectTools(runtime.GOOS)
		check(err)
		ids := make([]string, len(ts))
		for i, t := range ts {
			ids[i] = t.ID
		}
		fmt.Println("project:", strings.Join(ids, ","))
		var r, ruler, rs []string
		for _, p := range workload.PeerTools {
			r, ruler, rs = append(r, p.Repo), append(ruler, p.Ruler), append(rs, p.Rulesync)
		}
		fmt.Println("peers-repo:", strings.Join(r, ","))
		fmt.Println("peers-ruler:", strings.Join(ruler, ","))
		fmt.Println("peers-rulesync:", strings.Join(rs, ","))
		return
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -out is required")
		os.Exit(2)
	}
	root, err := filepath.Abs(*out)
	check(err)
	if *home == "" {
		*home = os.Getenv("HOME")
	}
	var toolList []string
	switch *tools {
	case "":
	case "none":
		toolList = []string{}
	default:
		toolList = strings.Split(*tools, ",")
	}
	res, err := workload.Generate(root, workload.Options{N: *n, Seed: *seed, Tools: toolList, Comments: *comments, Peers: *peers, Home: *home})
	check(err)
	fmt.Fprintf(os.Stderr, "gen: %s: %d extensions, %d tools, %d user configs\n", root, len(res.Servers), len(res.Tools), len(res.Files))
	if *mb > 0 {
		path := filepath.Join(*home, ".claude.json")
		st, err := workload.WriteClaudeJSONFile(path, workload.ClaudeOptions{Size: int64(*mb * (1 << 20)), Root: filepath.ToSlash(root), Seed: *seed})
		check(err)
		fmt.Fprintf(os.Stderr, "gen: %s: %d bytes, %d projects, %d history entries, workspace entry #%d at byte %d\n",
			path, st.Bytes, st.Projects, st.History, st.RootIndex, st.RootAt)
	}
	if *serversJSON != "" {
		check(writeClaudeEntries(root, *home, *serversJSON))
	}
}

// writeClaudeEntries writes {"<server>": <Claude Code entry>, …}: the same
// entries repo writes into projects[root].mcpServers.
func writeClaudeEntries(root, home, path string) error {
	set, err := toolprofiles.Builtin()
	if err != nil {
		return err
	}
	p := set.Get("claude")
	ws, err := extensions.Load(extensions.Options{Root: root, Home: home, GOOS: runtime.GOOS})
	if err != nil {
		return err
	}
	var obj ordered.Object
	for _, s := range ws.Servers {
		if e := translator.TranslateWith(s, p, translator.Options{}).Entry; e != nil {
			obj = append(obj, ordered.Member{Key: s.Name, Value: e})
		}
	}
	data, err := json.MarshalIndent(json.RawMessage(ordered.JSON(obj)), "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
