package yamledit

// Real-world-shaped files (built for these tests, not copied from users).

// gooseWritten is a config.yaml as Goose writes it (serde_yaml): keys in
// its own order, flush sequences, `bundled: null`, no comments and no final
// newline.
const gooseWritten = `GOOSE_PROVIDER: openai
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
GOOSE_MODEL: gpt-4o
GOOSE_MODE: smart_approve`

// gooseHand is a Goose config written by hand, with comments, a flow-style
// entry and a managed entry from an earlier run.
const gooseHand = `# Goose configuration
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

# keep this comment at the end
`

// continueConfig is a ~/.continue/config.yaml with an indented models list,
// a folded scalar, comments and a flush mcpServers list holding a user
// server.
const continueConfig = `name: Local Config
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

# context providers follow
context:
  - provider: code
`

// continueIndented is the same shape with an indented mcpServers list as
// the last key, with a comment between entries.
const continueIndented = `name: Indented
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
`

// dropInSkeleton is the file repo creates in .continue/mcpServers/.
const dropInSkeleton = "name: repo managed MCP servers\nversion: 0.0.1\nschema: v1\nmcpServers: []\n"

// hostileNames are names with a meaning in YAML or in path syntaxes.
var hostileNames = []string{
	"a.b", "a: b", "#x", "- x", "ünï", "42", "true", "", `"quoted"`, "it's", `a"b`,
	"null", "~", "yes", "no", "on", "1e3", "0x1F", ".5", "-1", "+1", "a #b", "a:", ":a",
	"[x]", "{x}", "*x", "&x", "!x", "|x", ">x", "%x", "@x", "`x", "?x", ",x", " lead", "trail ",
	"tab\there", "new\nline", "ctl\x01", "nbsp\u00a0x", "bom\ufeffx", "<<", "---", "...", "a\\b",
	"emoji😀", "日本語", "${{ secrets.X }}", "C:\\Users\\me", "x # y", "dash-name_1",
}

// gooseNoMarkers is gooseWritten after Goose rewrote a file holding a
// managed entry: the marker comments are gone.
const gooseNoMarkers = `GOOSE_PROVIDER: openai
extensions:
  developer:
    bundled: true
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  repo-fs:
    args:
    - -y
    - '@modelcontextprotocol/server-filesystem'
    - /home/u/old
    bundled: null
    cmd: npx
    enabled: true
    envs: {}
    name: repo-fs
    timeout: 300
    type: stdio
GOOSE_MODEL: gpt-4o`

// continueMarkersApart has a managed entry whose markers a user moved away
// from it, with comments in between.
const continueMarkersApart = `mcpServers:
  # >>> repo managed: repo-srv
  # (user note about the server below)
  - name: repo-srv
    command: old
  # note after
  # <<< repo managed: repo-srv
  - name: user
    command: u
`

const dropInOne = `name: repo managed MCP servers
version: 0.0.1
schema: v1
mcpServers:
  # >>> repo managed: a
  - name: a
    command: x
  # <<< repo managed: a
`

// valuesJSON exercises the rendering rules.
const valuesJSON = `{"command":"npx","args":["-y","@scope/pkg","--flag=1","plain arg","","42","true","a: b","x #y","-","#c"],` +
	`"env":{"EMPTY":"","NUM":"007","BOOL":"no","PATH_LIKE":"C:\\Users\\me","MULTI":"line1\nline2","QUOTE":"say \"hi\"","TAB":"a\tb"},` +
	`"n":3,"f":1.5,"big":1e3,"neg":-0.25,"t":true,"nil":null,"emptyObj":{},"emptyArr":[],` +
	`"nested":{"deep":{"list":[{"k":"v","k2":[1,2]},[],{},[["a"],"b"]]}},"ünï":"日本語"}`
