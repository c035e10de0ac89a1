package yamledit

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

type goldenCase struct {
	name  string
	in    string
	path  []string
	kind  Kind
	op    string // "set" or "delete"
	key   string
	value string // for "set"
	want  string
}

var (
	extensions = []string{"extensions"}
	mcpServers = []string{"mcpServers"}
)

const repoFS = `{"name":"repo-fs","cmd":"npx","args":["-y","@modelcontextprotocol/server-filesystem","/home/u/work"],"envs":{"LOG_LEVEL":"info"},"type":"stdio","enabled":true,"timeout":300}`

const repoSrv = `{"type":"stdio","command":"/home/u/.venv/bin/python","args":["-m","srv","--root","/home/u/work dir"],"env":{"TOKEN":"${{ secrets.TOKEN }}"},"cwd":"/home/u/work"}`

var goldenCases = []goldenCase{
	// --- Goose, as written by Goose ---
	{name: "goose/add", in: gooseWritten, path: extensions, kind: Map, op: "set", key: "repo-fs", value: repoFS,
		want: `GOOSE_PROVIDER: openai
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
  # >>> repo managed: repo-fs
  repo-fs:
    name: repo-fs
    cmd: npx
    args:
    - "-y"
    - "@modelcontextprotocol/server-filesystem"
    - /home/u/work
    envs:
      LOG_LEVEL: info
    type: stdio
    enabled: true
    timeout: 300
  # <<< repo managed: repo-fs
GOOSE_MODEL: gpt-4o
GOOSE_MODE: smart_approve`},
	{name: "goose/replace-user-entry", in: gooseWritten, path: extensions, kind: Map, op: "set", key: "memory",
		value: `{"args":["-y","@modelcontextprotocol/server-memory"],"bundled":null,"cmd":"npx","enabled":true,"envs":{},"name":"memory","timeout":300,"type":"stdio"}`,
		want: `GOOSE_PROVIDER: openai
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
  # >>> repo managed: memory
  memory:
    args:
    - "-y"
    - "@modelcontextprotocol/server-memory"
    bundled: null
    cmd: npx
    enabled: true
    envs: {}
    name: memory
    timeout: 300
    type: stdio
  # <<< repo managed: memory
GOOSE_MODEL: gpt-4o
GOOSE_MODE: smart_approve`},
	{name: "goose/delete-middle", in: gooseWritten, path: extensions, kind: Map, op: "delete", key: "memory",
		want: `GOOSE_PROVIDER: openai
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
GOOSE_MODEL: gpt-4o
GOOSE_MODE: smart_approve`},
	{name: "goose/delete-first", in: gooseWritten, path: extensions, kind: Map, op: "delete", key: "developer",
		want: `GOOSE_PROVIDER: openai
extensions:
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
GOOSE_MODEL: gpt-4o
GOOSE_MODE: smart_approve`},
	{name: "goose/markers-removed-by-goose", in: gooseNoMarkers, path: extensions, kind: Map, op: "set", key: "repo-fs", value: repoFS,
		want: `GOOSE_PROVIDER: openai
extensions:
  developer:
    bundled: true
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  # >>> repo managed: repo-fs
  repo-fs:
    name: repo-fs
    cmd: npx
    args:
    - "-y"
    - "@modelcontextprotocol/server-filesystem"
    - /home/u/work
    envs:
      LOG_LEVEL: info
    type: stdio
    enabled: true
    timeout: 300
  # <<< repo managed: repo-fs
GOOSE_MODEL: gpt-4o`},
	{name: "goose/markers-removed-delete", in: gooseNoMarkers, path: extensions, kind: Map, op: "delete", key: "repo-fs",
		want: `GOOSE_PROVIDER: openai
extensions:
  developer:
    bundled: true
    enabled: true
    name: developer
    timeout: 300
    type: builtin
GOOSE_MODEL: gpt-4o`},
	{name: "goose/no-extensions-key", in: "GOOSE_PROVIDER: openai\nGOOSE_MODEL: gpt-4o", path: extensions, kind: Map, op: "set", key: "repo-fs", value: repoFS,
		want: `GOOSE_PROVIDER: openai
GOOSE_MODEL: gpt-4o
extensions:
  # >>> repo managed: repo-fs
  repo-fs:
    name: repo-fs
    cmd: npx
    args:
      - "-y"
      - "@modelcontextprotocol/server-filesystem"
      - /home/u/work
    envs:
      LOG_LEVEL: info
    type: stdio
    enabled: true
    timeout: 300
  # <<< repo managed: repo-fs`},
	{name: "goose/flow-empty-extensions", in: "GOOSE_PROVIDER: openai\nextensions: {}\nGOOSE_MODEL: gpt-4o\n", path: extensions, kind: Map, op: "set", key: "repo-fs", value: repoFS,
		want: `GOOSE_PROVIDER: openai
extensions:
  # >>> repo managed: repo-fs
  repo-fs:
    name: repo-fs
    cmd: npx
    args:
      - "-y"
      - "@modelcontextprotocol/server-filesystem"
      - /home/u/work
    envs:
      LOG_LEVEL: info
    type: stdio
    enabled: true
    timeout: 300
  # <<< repo managed: repo-fs
GOOSE_MODEL: gpt-4o
`},

	// --- Goose, written by hand ---
	{name: "goose-hand/add-after-managed", in: gooseHand, path: extensions, kind: Map, op: "set", key: "repo-fs", value: repoFS,
		want: `# Goose configuration
GOOSE_PROVIDER: anthropic   # provider
GOOSE_MODEL: claude-sonnet-4

extensions:
  # built-in tools
  developer: {bundled: true, enabled: true, name: developer, timeout: 300, type: builtin}

  # >>> repo managed: notes
  notes:
    name: notes
    cmd: /opt/notes/bin/server
    args:
      - --db
      - /home/u/notes.db
    enabled: true
    type: stdio
  # <<< repo managed: notes
  # >>> repo managed: repo-fs
  repo-fs:
    name: repo-fs
    cmd: npx
    args:
      - "-y"
      - "@modelcontextprotocol/server-filesystem"
      - /home/u/work
    envs:
      LOG_LEVEL: info
    type: stdio
    enabled: true
    timeout: 300
  # <<< repo managed: repo-fs

# keep this comment at the end
`},
	{name: "goose-hand/replace-managed", in: gooseHand, path: extensions, kind: Map, op: "set", key: "notes", value: `{"name":"notes","cmd":"/opt/notes/bin/server","args":["--db","/home/u/other.db"],"enabled":true,"type":"stdio"}`,
		want: `# Goose configuration
GOOSE_PROVIDER: anthropic   # provider
GOOSE_MODEL: claude-sonnet-4

extensions:
  # built-in tools
  developer: {bundled: true, enabled: true, name: developer, timeout: 300, type: builtin}

  # >>> repo managed: notes
  notes:
    name: notes
    cmd: /opt/notes/bin/server
    args:
      - "--db"
      - /home/u/other.db
    enabled: true
    type: stdio
  # <<< repo managed: notes

# keep this comment at the end
`},
	{name: "goose-hand/delete-managed", in: gooseHand, path: extensions, kind: Map, op: "delete", key: "notes",
		want: `# Goose configuration
GOOSE_PROVIDER: anthropic   # provider
GOOSE_MODEL: claude-sonnet-4

extensions:
  # built-in tools
  developer: {bundled: true, enabled: true, name: developer, timeout: 300, type: builtin}

# keep this comment at the end
`},
	{name: "goose-hand/delete-flow-entry", in: gooseHand, path: extensions, kind: Map, op: "delete", key: "developer",
		want: `# Goose configuration
GOOSE_PROVIDER: anthropic   # provider
GOOSE_MODEL: claude-sonnet-4

extensions:
  # built-in tools

  # >>> repo managed: notes
  notes:
    name: notes
    cmd: /opt/notes/bin/server
    args:
      - --db
      - /home/u/notes.db
    enabled: true
    type: stdio
  # <<< repo managed: notes

# keep this comment at the end
`},

	// --- Continue config.yaml ---
	{name: "continue/add-flush", in: continueConfig, path: mcpServers, kind: List, op: "set", key: "repo-srv", value: repoSrv,
		want: `name: Local Config
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
- name: user-db   # my own server
  command: uvx
  args: ["mcp-server-sqlite", "--db-path", "/tmp/test.db"]
# >>> repo managed: repo-srv
- name: repo-srv
  type: stdio
  command: /home/u/.venv/bin/python
  args:
  - "-m"
  - srv
  - "--root"
  - /home/u/work dir
  env:
    TOKEN: ${{ secrets.TOKEN }}
  cwd: /home/u/work
# <<< repo managed: repo-srv

# context providers follow
context:
  - provider: code
`},
	{name: "continue/replace-user", in: continueConfig, path: mcpServers, kind: List, op: "set", key: "user-db", value: `{"command":"uvx","args":["mcp-server-sqlite","--db-path","/tmp/other.db"]}`,
		want: `name: Local Config
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
# >>> repo managed: user-db
- name: user-db
  command: uvx
  args:
  - mcp-server-sqlite
  - "--db-path"
  - /tmp/other.db
# <<< repo managed: user-db

# context providers follow
context:
  - provider: code
`},
	{name: "continue/delete-last-user-entry", in: continueConfig, path: mcpServers, kind: List, op: "delete", key: "user-db",
		want: `name: Local Config
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
mcpServers: []

# context providers follow
context:
  - provider: code
`},
	{name: "continue/add-indented", in: continueIndented, path: mcpServers, kind: List, op: "set", key: "repo-srv", value: repoSrv,
		want: `name: Indented
version: 0.0.1
schema: v1
mcpServers:
  - name: first
    command: npx
    args:
      - -y
      - server-first

  # the second one is mine
  - name: second
    type: stdio
    command: /usr/bin/second
  # >>> repo managed: repo-srv
  - name: repo-srv
    type: stdio
    command: /home/u/.venv/bin/python
    args:
      - "-m"
      - srv
      - "--root"
      - /home/u/work dir
    env:
      TOKEN: ${{ secrets.TOKEN }}
    cwd: /home/u/work
  # <<< repo managed: repo-srv
`},
	{name: "continue/delete-first-keeps-comment", in: continueIndented, path: mcpServers, kind: List, op: "delete", key: "first",
		want: `name: Indented
version: 0.0.1
schema: v1
mcpServers:

  # the second one is mine
  - name: second
    type: stdio
    command: /usr/bin/second
`},
	{name: "continue/replace-second", in: continueIndented, path: mcpServers, kind: List, op: "set", key: "second", value: `{"command":"/usr/bin/second","args":[]}`,
		want: `name: Indented
version: 0.0.1
schema: v1
mcpServers:
  - name: first
    command: npx
    args:
      - -y
      - server-first

  # the second one is mine
  # >>> repo managed: second
  - name: second
    command: /usr/bin/second
    args: []
  # <<< repo managed: second
`},
	{name: "continue/crlf", in: crlf(continueConfig), path: mcpServers, kind: List, op: "set", key: "repo-srv", value: repoSrv,
		want: crlf(`name: Local Config
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
- name: user-db   # my own server
  command: uvx
  args: ["mcp-server-sqlite", "--db-path", "/tmp/test.db"]
# >>> repo managed: repo-srv
- name: repo-srv
  type: stdio
  command: /home/u/.venv/bin/python
  args:
  - "-m"
  - srv
  - "--root"
  - /home/u/work dir
  env:
    TOKEN: ${{ secrets.TOKEN }}
  cwd: /home/u/work
# <<< repo managed: repo-srv

# context providers follow
context:
  - provider: code
`)},
	{name: "continue/bom-crlf-indented", in: bomStr + crlf(continueIndented), path: mcpServers, kind: List, op: "set", key: "repo-srv", value: repoSrv,
		want: bomStr + crlf(`name: Indented
version: 0.0.1
schema: v1
mcpServers:
  - name: first
    command: npx
    args:
      - -y
      - server-first

  # the second one is mine
  - name: second
    type: stdio
    command: /usr/bin/second
  # >>> repo managed: repo-srv
  - name: repo-srv
    type: stdio
    command: /home/u/.venv/bin/python
    args:
      - "-m"
      - srv
      - "--root"
      - /home/u/work dir
    env:
      TOKEN: ${{ secrets.TOKEN }}
    cwd: /home/u/work
  # <<< repo managed: repo-srv
`)},
	{name: "continue/no-mcpServers", in: "name: Minimal\nversion: 0.0.1\nmodels:\n  - name: m\n    provider: ollama\n    model: llama3\n", path: mcpServers, kind: List, op: "set", key: "repo-srv", value: repoSrv,
		want: `name: Minimal
version: 0.0.1
models:
  - name: m
    provider: ollama
    model: llama3
mcpServers:
  # >>> repo managed: repo-srv
  - name: repo-srv
    type: stdio
    command: /home/u/.venv/bin/python
    args:
      - "-m"
      - srv
      - "--root"
      - /home/u/work dir
    env:
      TOKEN: ${{ secrets.TOKEN }}
    cwd: /home/u/work
  # <<< repo managed: repo-srv
`},
	{name: "continue/null-with-comment", in: "name: n\nversion: 1\nmcpServers:   # none yet\nmodels: []\n", path: mcpServers, kind: List, op: "set", key: "a", value: `{"command":"x"}`,
		want: `name: n
version: 1
mcpServers:   # none yet
  # >>> repo managed: a
  - name: a
    command: x
  # <<< repo managed: a
models: []
`},
	{name: "continue/explicit-null", in: "name: n\nmcpServers: null\n", path: mcpServers, kind: List, op: "set", key: "a", value: `{"command":"x"}`,
		want: `name: n
mcpServers:
  # >>> repo managed: a
  - name: a
    command: x
  # <<< repo managed: a
`},
	{name: "continue/markers-apart", in: continueMarkersApart, path: mcpServers, kind: List, op: "set", key: "repo-srv", value: `{"command":"new"}`,
		want: `mcpServers:
  # (user note about the server below)
  # >>> repo managed: repo-srv
  - name: repo-srv
    command: new
  # <<< repo managed: repo-srv
  # note after
  - name: user
    command: u
`},
	{name: "continue/markers-apart-delete", in: continueMarkersApart, path: mcpServers, kind: List, op: "delete", key: "repo-srv",
		want: `mcpServers:
  # (user note about the server below)
  # note after
  - name: user
    command: u
`},
	{name: "continue/document-end", in: "name: n\nversion: 1\n...\n# after the end\n", path: mcpServers, kind: List, op: "set", key: "a", value: `{"command":"x"}`,
		want: `name: n
version: 1
mcpServers:
  # >>> repo managed: a
  - name: a
    command: x
  # <<< repo managed: a
...
# after the end
`},

	// --- Continue drop-in files ---
	{name: "dropin/first-server", in: dropInSkeleton, path: mcpServers, kind: List, op: "set", key: "repo-srv", value: repoSrv,
		want: `name: repo managed MCP servers
version: 0.0.1
schema: v1
mcpServers:
  # >>> repo managed: repo-srv
  - name: repo-srv
    type: stdio
    command: /home/u/.venv/bin/python
    args:
      - "-m"
      - srv
      - "--root"
      - /home/u/work dir
    env:
      TOKEN: ${{ secrets.TOKEN }}
    cwd: /home/u/work
  # <<< repo managed: repo-srv
`},
	{name: "dropin/delete-last-leaves-skeleton", in: dropInOne, path: mcpServers, kind: List, op: "delete", key: "a",
		want: `name: repo managed MCP servers
version: 0.0.1
schema: v1
mcpServers: []
`},

	// --- New and odd files ---
	{name: "new/empty-file", in: "", path: mcpServers, kind: List, op: "set", key: "a", value: `{"command":"x"}`,
		want: `mcpServers:
  # >>> repo managed: a
  - name: a
    command: x
  # <<< repo managed: a
`},
	{name: "new/comment-only", in: "# just a comment", path: mcpServers, kind: List, op: "set", key: "a", value: `{"command":"x"}`,
		want: `# just a comment
mcpServers:
  # >>> repo managed: a
  - name: a
    command: x
  # <<< repo managed: a`},
	{name: "new/nested-path", in: "x:\n    other: 1\ny: 2\n", path: []string{"x", "servers"}, kind: Map, op: "set", key: "a", value: `{"command":"x"}`,
		want: `x:
    other: 1
    servers:
        # >>> repo managed: a
        a:
            command: x
        # <<< repo managed: a
y: 2
`},
	{name: "new/nested-null-parent", in: "x:\ny: 2\n", path: []string{"x", "servers"}, kind: Map, op: "set", key: "a", value: `{"command":"x"}`,
		want: `x:
  servers:
    # >>> repo managed: a
    a:
      command: x
    # <<< repo managed: a
y: 2
`},
	{name: "render/values", in: "mcpServers:\n- name: u\n", path: mcpServers, kind: List, op: "set", key: "v", value: valuesJSON,
		want: `mcpServers:
- name: u
# >>> repo managed: v
- name: v
  command: npx
  args:
  - "-y"
  - "@scope/pkg"
  - "--flag=1"
  - plain arg
  - ""
  - "42"
  - "true"
  - "a: b"
  - "x #y"
  - "-"
  - "#c"
  env:
    EMPTY: ""
    NUM: "007"
    BOOL: "no"
    PATH_LIKE: C:\Users\me
    MULTI: "line1\nline2"
    QUOTE: say "hi"
    TAB: "a\tb"
  "n": 3
  f: 1.5
  big: 1.0e+3
  neg: -0.25
  t: true
  nil: null
  emptyObj: {}
  emptyArr: []
  nested:
    deep:
      list:
      - k: v
        k2:
        - 1
        - 2
      - []
      - {}
      - - - a
        - b
  ünï: 日本語
# <<< repo managed: v
`},
	{name: "render/values-map", in: "extensions:\n    u: {}\n", path: extensions, kind: Map, op: "set", key: "v", value: valuesJSON,
		want: `extensions:
    u: {}
    # >>> repo managed: v
    v:
        command: npx
        args:
            - "-y"
            - "@scope/pkg"
            - "--flag=1"
            - plain arg
            - ""
            - "42"
            - "true"
            - "a: b"
            - "x #y"
            - "-"
            - "#c"
        env:
            EMPTY: ""
            NUM: "007"
            BOOL: "no"
            PATH_LIKE: C:\Users\me
            MULTI: "line1\nline2"
            QUOTE: say "hi"
            TAB: "a\tb"
        "n": 3
        f: 1.5
        big: 1.0e+3
        neg: -0.25
        t: true
        nil: null
        emptyObj: {}
        emptyArr: []
        nested:
            deep:
                list:
                    - k: v
                      k2:
                          - 1
                          - 2
                    - []
                    - {}
                    - - - a
                      - b
        ünï: 日本語
    # <<< repo managed: v
`},
}

func TestGolden(t *testing.T) {
	printMode := os.Getenv("YAMLEDIT_PRINT") != ""
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustParse(t, tc.in)
			var got *Doc
			var err error
			switch tc.op {
			case "set":
				got, err = d.set(tc.path, tc.kind, "name", tc.key, []byte(tc.value))
			case "delete":
				got, err = d.Delete(tc.path, tc.kind, "name", tc.key)
			default:
				t.Fatalf("bad op %q", tc.op)
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.op, err)
			}
			if printMode {
				fmt.Printf("=== %s\n%s<<<END\n", tc.name, got.Bytes())
				return
			}
			if string(got.Bytes()) != tc.want {
				t.Fatalf("%s", diff(string(got.Bytes()), tc.want))
			}
			// The same edit on a document parsed from scratch gives the
			// same bytes.
			if tc.op == "set" {
				checkSet(t, d, got, tc.path, tc.kind, tc.key, []byte(tc.value))
				// Undo in the same edit chain: the original comes back
				// when the entry was new.
				if entryValue(t, d, tc.path, tc.kind, tc.key) == nil {
					back, err := got.Delete(tc.path, tc.kind, "name", tc.key)
					if err != nil {
						t.Fatalf("Delete: %v", err)
					}
					if !bytes.Equal(back.Bytes(), d.Bytes()) {
						t.Fatalf("Delete after Set did not restore the original:\n%s", diff(string(back.Bytes()), tc.in))
					}
				}
			} else {
				if entryValue(t, got, tc.path, tc.kind, tc.key) != nil {
					t.Fatal("entry still there")
				}
				checkRestIntact(t, d, got, tc.path)
			}
			// Markers never stay behind for a deleted entry.
			if tc.op == "delete" && strings.Contains(string(got.Bytes()), "repo managed: "+tc.key+"\n") {
				t.Fatalf("marker left behind:\n%s", got.Bytes())
			}
		})
	}
}
