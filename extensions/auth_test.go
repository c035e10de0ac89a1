package extensions

import (
	"reflect"
	"strings"
	"testing"
)

// TestAuthDecode: a remote server's oauth and headersHelper are read as
// given, and "streamable-http" is the http transport.
func TestAuthDecode(t *testing.T) {
	mcp := `{"mcpServers": {
  "docs": {"type": "streamable-http", "url": "https://docs.invalid/mcp",
           "oauth": {"clientId": "repo-docs", "clientSecret": "${DOCS_CLIENT_SECRET}", "callbackPort": 8912,
                     "scopes": ["read", "search"], "authServerMetadataUrl": "https://id.invalid/.well-known/oauth-authorization-server"},
           "headersHelper": "docs-token --json"},
  "bare": {"url": "https://bare.invalid/mcp", "oauth": {}},
  "plain": {"url": "https://plain.invalid/mcp"}
}}`
	ws, _, err := loadOne(t, mcp, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*Auth{}
	for _, s := range ws.Servers {
		got[s.Name] = s.Auth
		if s.Transport != HTTP {
			t.Errorf("%s: transport %q, want http", s.Name, s.Transport)
		}
	}
	want := map[string]*Auth{
		"docs": {OAuth: &OAuth{ClientID: "repo-docs", ClientSecret: "${DOCS_CLIENT_SECRET}", CallbackPort: 8912,
			Scopes: []string{"read", "search"}, AuthServerMetadataURL: "https://id.invalid/.well-known/oauth-authorization-server"},
			HeadersHelper: "docs-token --json"},
		"bare":  {OAuth: &OAuth{}},
		"plain": nil,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("auth:\n got %+v\nwant %+v", got, want)
	}
	if !got["plain"].IsZero() || got["bare"].IsZero() {
		t.Error("IsZero: plain has no auth, bare asks for OAuth")
	}
}

// A wrong oauth or headersHelper is an error naming the file, line,
// column, extension, server and field; a secret written out is refused.
func TestAuthErrors(t *testing.T) {
	cases := []struct{ name, entry, want string }{
		{"secret literal", `"oauth": {"clientId": "c", "clientSecret": "s3cr3t"}`, `field oauth.clientSecret: must be an environment reference such as "${MY_CLIENT_SECRET}", never the secret itself`},
		{"secret with text", `"oauth": {"clientId": "c", "clientSecret": "x${S}"}`, `field oauth.clientSecret: must be an environment reference`},
		{"secret without id", `"oauth": {"clientSecret": "${S}"}`, `field oauth.clientSecret: a client secret needs its clientId`},
		{"port text", `"oauth": {"callbackPort": "8912"}`, `field oauth.callbackPort: "8912": give a port number, 1 to 65535`},
		{"port too big", `"oauth": {"callbackPort": 70000}`, `field oauth.callbackPort: 70000: give a port number`},
		{"port fraction", `"oauth": {"callbackPort": 80.5}`, `give a port number`},
		{"scopes string", `"oauth": {"scopes": "read write"}`, `field oauth.scopes: must be an array of strings, not a string`},
		{"scopes empty", `"oauth": {"scopes": []}`, `field oauth.scopes: an empty list asks for no scope`},
		{"scope with space", `"oauth": {"scopes": ["read write"]}`, `field oauth.scopes[0]: "read write": one scope per string`},
		{"scope twice", `"oauth": {"scopes": ["a", "a"]}`, `"a" is listed twice`},
		{"metadata http", `"oauth": {"authServerMetadataUrl": "http://id.invalid/m"}`, `field oauth.authServerMetadataUrl: "http://id.invalid/m": the metadata URL must use https://`},
		{"unknown oauth field", `"oauth": {"client_id": "c"}`, `field oauth.client_id: unknown field (known: clientId, clientSecret, callbackPort, scopes, authServerMetadataUrl)`},
		{"oauth not object", `"oauth": true`, `field oauth: must be an object`},
		{"client id empty", `"oauth": {"clientId": " "}`, `field oauth.clientId: must not be empty`},
		{"helper not string", `"headersHelper": ["x"]`, `field headersHelper: must be a string (a command that prints the headers as a JSON object), not an array`},
		{"helper empty", `"headersHelper": ""`, `field headersHelper: must not be empty`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mcp := "{\"mcpServers\": {\n  \"s\": {\"url\": \"https://h.invalid/mcp\", " + c.entry + "}\n}}"
			_, _, err := loadOne(t, mcp, nil)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range []string{".repository/extensions/ext/mcp.json:2:", `extension ext, server "s"`, c.want} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	// A stdio server takes neither.
	for _, f := range []string{`"oauth": {}`, `"headersHelper": "x"`} {
		_, _, err := loadOne(t, "{\"mcpServers\": {\n  \"s\": {\"command\": \"x\", "+f+"}}}", nil)
		if err == nil || !strings.Contains(err.Error(), "only remote (http, sse) servers take") {
			t.Errorf("%s on a stdio server: err = %v", f, err)
		}
	}
}
