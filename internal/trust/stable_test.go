package trust

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/repo-manager/repo/extensions"
	"github.com/repo-manager/repo/toolprofiles"
)

// TestDigestsAreStable pins the digest of a definition with every field
// given, its JSON as the store keeps it, and the digest of a workspace
// profile with every per-server setting mapped. Trust stores on users'
// machines hold such digests: a change to any of them makes every server
// untrusted again (and needs a new digestDomain), so it must be a decision,
// never the side effect of a refactoring.
func TestDigestsAreStable(t *testing.T) {
	const profile = "id = \"mine\"\nname = \"Mine\"\nmcp = true\nevidence = \"unverified\"\nsources = [\"a test\"]\n" +
		"[scopes.user]\npaths = [\"~/.mine/mcp.json\"]\nformat = \"json\"\nkey = [\"mcpServers\"]\n[entry]\ncommand = \"string\"\n" +
		"[entry.settings]\nenabled = { field = \"disabled\", negate = true }\ninclude_tools = { field = \"only\" }\n" +
		"exclude_tools = { field = \"never\" }\nauto_approve = { field = \"tools\", each = { approval_mode = \"approve\" } }\n" +
		"startup_timeout = { field = \"start\", unit = \"s\", max = 60 }\ntool_timeout = { field = \"call\", unit = \"ms\", every_request = true }\n"
	set, err := toolprofiles.LoadFS(fstest.MapFS{"mine.toml": &fstest.MapFile{Data: []byte(profile)}}, WorkspaceOrigin)
	if err != nil {
		t.Fatal(err)
	}
	profiles := WorkspaceProfiles(set)
	if want := "sha256:ba4ea3b17b29cd62cf4f47360fc85eacf4e604f70009f78dcd1a854e012bd396"; len(profiles) != 1 || profiles[0].Digest != want {
		t.Errorf("workspace profile digest %+v, want %s", profiles, want)
	}
	off := false
	s := baseServer()
	s.Settings = extensions.Settings{Enabled: &off, IncludeTools: []string{"read", "list"}, ExcludeTools: []string{"x"},
		AutoApprove: []string{"list"}, StartupTimeout: 20, ToolTimeout: 30}
	s.Auth = &extensions.Auth{HeadersHelper: "helper --json", OAuth: &extensions.OAuth{ClientID: "c", ClientSecret: "${S}",
		CallbackPort: 8080, Scopes: []string{"a", "b"}, AuthServerMetadataURL: "https://id.example/meta"}}
	d := Define(s, profiles)
	if got, want := d.Digest(), "sha256:b0b7a0391bfcd4ab0d1cd8d5c5211efba6a67e1903b3e0d4e08cf3a2c2a80cd1"; got != want {
		t.Errorf("definition digest %s, want %s", got, want)
	}
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"extension":"ext","transport":"stdio","command":"/ws/.venv/bin/python","args":["server.py","--root","/ws"],"cwd":"/ws","env":[{"name":"A","value":"${TOKEN}"},{"name":"B","value":"2"}],"headers_helper":"helper --json","oauth":{"client_id":"c","client_secret":"${S}","callback_port":8080,"scopes":["a","b"],"auth_server_metadata_url":"https://id.example/meta"},"enabled":false,"include_tools":["list","read"],"exclude_tools":["x"],"auto_approve":["list"],"profiles":[{"id":"mine","origin":".repository/toolprofiles/mine.toml","digest":"sha256:ba4ea3b17b29cd62cf4f47360fc85eacf4e604f70009f78dcd1a854e012bd396"}]}`; string(data) != want {
		t.Errorf("definition JSON\n%s\nwant\n%s", data, want)
	}
	if got, want := strings.Join(d.Lines(), "\n"), `transport stdio
command /ws/.venv/bin/python
args server.py --root /ws
cwd /ws
env A=${TOKEN}
env B=2
headers_helper helper --json
oauth
oauth client_id c
oauth client_secret ${S}
oauth callback_port 8080
oauth scopes a b
oauth auth_server_metadata_url https://id.example/meta
enabled false
include_tools list, read
exclude_tools x
auto_approve list
profile mine .repository/toolprofiles/mine.toml sha256:ba4ea3b17b29cd62cf4f47360fc85eacf4e604f70009f78dcd1a854e012bd396`; got != want {
		t.Errorf("definition lines\n%s\nwant\n%s", got, want)
	}
	s.Settings = extensions.Settings{}
	s.Auth = nil
	if got, want := Define(s, nil).Digest(), "sha256:be767f4bd1dca8b41856b776d108f903d80f4b186f4ee08063cdd9cc9500c782"; got != want {
		t.Errorf("digest without settings %s, want %s", got, want)
	}
}
