//go:build linux && repodev

package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// The servers of the harness's own extension, "conformance", which prove that the per-server
// settings and a remote server's header reference arrive as meant (not only that servers connect).
const (
	confOff     = "conf-off"     // "enabled": false: must not be started
	confInclude = "conf-include" // includeTools alpha, beta (of alpha, beta, gamma); autoApprove alpha; timeouts
	confExclude = "conf-exclude" // excludeTools gamma
	confRemote  = "conf-remote"  // http on loopback, "Authorization": "Bearer ${CONF_TOKEN}"
	// confPort is the loopback port of the remote server, inside each check's network namespace.
	confPort = 18765
	// confToken is the header value the remote server wants: the clients get it only from their
	// environment (CONF_TOKEN), since repo writes the reference, never the value. A test value.
	confToken = "conformance-token-3f9c1e"
	// The settings conf-include declares, as its client must report them.
	confStartup, confToolTimeout = 45, 90
)

//go:embed testdata/settings_server.py
var settingsServer []byte

// writeSettingsExtension adds the extension to the scratch workspace, before the syncs that write
// every checked tool's files. Its stdio servers run the system python3 by absolute path (a bare
// python3 would mean the extension's venv, which it has none of).
func writeSettingsExtension(project string) error {
	py, err := exec.LookPath("python3")
	if err != nil {
		return fmt.Errorf("python3 is needed for the conformance extension's server: %w", err)
	}
	dir := filepath.Join(project, ".repository", "extensions", "conformance")
	stdio := func(extra string) string {
		return fmt.Sprintf(`{"command": %q, "args": ["<<extension.dir>>/settings_server.py"]%s}`, py, extra)
	}
	mcp := fmt.Sprintf(`{"mcpServers": {
  %q: %s,
  %q: %s,
  %q: %s,
  %q: {"type": "http", "url": "http://127.0.0.1:%d/mcp", "headers": {"Authorization": "Bearer ${CONF_TOKEN}"}}
}}
`, confOff, stdio(`, "enabled": false`),
		confInclude, stdio(fmt.Sprintf(`, "includeTools": ["alpha", "beta"], "autoApprove": ["alpha"], "startupTimeout": %d, "toolTimeout": %d`, confStartup, confToolTimeout)),
		confExclude, stdio(`, "excludeTools": ["gamma"]`),
		confRemote, confPort)
	for name, content := range map[string]string{
		"extension.toml":     "name = \"conformance\"\nversion = \"1.0.0\"\n\n[provides]\nmcp = \"mcp.json\"\n",
		"mcp.json":           mcp,
		"settings_server.py": string(settingsServer),
	} {
		if err := writeFile(filepath.Join(dir, name), content); err != nil {
			return err
		}
	}
	return nil
}

// serveRemote wraps a client's command so that the remote server runs beside it in the same
// network namespace (each command gets its own, with only a loopback interface), and is up before
// the client starts. Without a namespace there is no private loopback to serve on: the client runs
// alone, and the remote expectation says why.
func serveRemote(sb Sandbox, tmp string, argv []string) []string {
	if !sb.isolated() {
		return argv
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		return argv
	}
	script := filepath.Join(tmp, "settings_server.py")
	if err := writeFile(script, string(settingsServer)); err != nil {
		return argv
	}
	ready := filepath.Join(tmp, "remote-ready")
	sh := fmt.Sprintf(`rm -f %[4]q; %[1]q %[2]q --http %[3]d --token %[5]q --ready %[4]q >/dev/null 2>&1 &
i=0; while [ ! -e %[4]q ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
"$@"; code=$?; kill $! 2>/dev/null; exit $code`, py, script, confPort, ready, confToken)
	return append([]string{"sh", "-c", sh, "sh"}, argv...)
}

// settingRow is one expectation about the conformance extension's servers in one check.
type settingRow struct {
	what, verdict, detail string
}

// remoteUnsupported are the clients for which repo cannot write the remote server's header, with
// why: their remote row says so instead of failing.
var remoteUnsupported = map[string]string{
	"cn": "Continue keeps headers in requestOptions.headers, which repo cannot write yet (profile continue)",
}

// settingRows are the expectations about the conformance servers: the switched-off one is not
// started; the remote one connects with the header from the environment; and where the client
// reports them offline, the tool filters and the timeouts and approvals arrive as declared.
// Where repo's sync for the check warned that the remote server's header cannot be written as a
// reference the tool expands (RemoteWarning), the remote row says so rather than failing: repo's
// promise is the header, or a warning.
func (r *CheckResult) settingRows(isolated bool) []settingRow {
	warned := r.RemoteWarning
	// A check before repo trust expects nothing written: its own verdict
	// is that no server started, and no setting can arrive.
	if r.untrusted || r.SyncErr != "" || r.Err != nil && len(r.Records) == 0 {
		return nil
	}
	rec := func(name string) *Record {
		for i := range r.Records {
			if r.Records[i].Server == name {
				return &r.Records[i]
			}
		}
		return nil
	}
	var rows []settingRow
	off := rec(confOff)
	switch {
	case off == nil:
		rows = append(rows, settingRow{"switched-off server not started", "PASS", confOff + " not loaded"})
	case off.Status == Connected:
		rows = append(rows, settingRow{"switched-off server not started", "FAIL", confOff + " connected"})
	default:
		rows = append(rows, settingRow{"switched-off server not started", "PASS", confOff + " " + string(off.Status)})
	}
	remote := rec(confRemote)
	switch why, skip := remoteUnsupported[r.client.ID()]; {
	case skip:
		rows = append(rows, settingRow{"remote http, header from the environment", "NOT SUPPORTED BY REPO", why})
	case !isolated:
		rows = append(rows, settingRow{"remote http, header from the environment", "NOT CHECKED", "no network namespace to serve the remote server in"})
	case remote != nil && remote.Status == Connected:
		rows = append(rows, settingRow{"remote http, header from the environment", "PASS", confRemote + " connected"})
	case warned != "":
		rows = append(rows, settingRow{"remote http, header from the environment", "NOT SUPPORTED (repo warned)", warned})
	default:
		d := "not listed by the client"
		if remote != nil {
			d = string(remote.Status) + " " + remote.Detail
		}
		rows = append(rows, settingRow{"remote http, header from the environment", "FAIL", confRemote + " " + strings.TrimSpace(d)})
	}
	inc, exc := rec(confInclude), rec(confExclude)
	if inc != nil && exc != nil && inc.Tools != nil && exc.Tools != nil {
		want := []string{"alpha", "beta"}
		v := "PASS"
		if !slices.Equal(inc.Tools, want) || !slices.Equal(exc.Tools, want) {
			v = "FAIL"
		}
		rows = append(rows, settingRow{"includeTools / excludeTools leave exactly the named tools", v,
			fmt.Sprintf("%s offers %s; %s offers %s (want %s for both)", confInclude, toolList(inc.Tools), confExclude, toolList(exc.Tools), toolList(want))})
	}
	if inc != nil && inc.Config != nil {
		want := map[string]string{"startupTimeout": fmt.Sprint(confStartup), "toolTimeout": fmt.Sprint(confToolTimeout), "autoApprove": "alpha"}
		v := "PASS"
		var got []string
		for _, k := range []string{"startupTimeout", "toolTimeout", "autoApprove"} {
			got = append(got, fmt.Sprintf("%s %s", k, orDash(inc.Config[k])))
			if inc.Config[k] != want[k] {
				v = "FAIL"
			}
		}
		rows = append(rows, settingRow{"timeouts and autoApprove where the tool reads them", v,
			confInclude + ", as the client parsed it: " + strings.Join(got, ", ") + fmt.Sprintf(" (want %d s, %d s, alpha)", confStartup, confToolTimeout)})
	}
	return rows
}

func toolList(tools []string) string {
	if len(tools) == 0 {
		return "none"
	}
	return strings.Join(tools, ", ")
}

// toolNames reads the tool names of a client's report: a map keyed by name, or a list of objects
// with a name (possibly prefixed "<server>__", which is cut).
func toolNames(raw json.RawMessage, server string) []string {
	var out []string
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil && m != nil {
		for k := range m {
			out = append(out, k)
		}
	} else {
		var list []struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &list) != nil {
			return nil
		}
		out = []string{}
		for _, t := range list {
			out = append(out, t.Name)
		}
	}
	for i, n := range out {
		if _, after, ok := strings.Cut(n, server+"__"); ok {
			out[i] = after
		}
	}
	slices.Sort(out)
	return out
}

// remoteWarning is what repo's sync for the check said about the remote server, if anything: a
// warning that its header reference reaches the tool as literal text.
func (w *Workspace) remoteWarning(tool, scope string) string {
	if w == nil {
		return ""
	}
	for _, sr := range w.Syncs {
		if !sr.covers(tool, scope) {
			continue
		}
		for _, ln := range strings.Split(sr.Output, "\n") {
			if strings.Contains(ln, `server "`+confRemote+`"`) && strings.Contains(ln, "headers") {
				return strings.TrimPrefix(ln, "warning: ")
			}
		}
	}
	return ""
}
