//go:build linux && repodev

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A stand-in model for clients that have no command to list their MCP servers with status. The
// client runs one prompt against a model service that the check serves on the loopback interface
// of its own network namespace (a few lines of Python, started next to the client); a client
// offers the model every tool of every MCP server it connected, so the tools in the recorded
// request say which servers started and answered tools/list. Nothing leaves the namespace.
//
// It answers what the two clients that use it need to get as far as one request: an
// OpenAI-compatible chat completion is refused (400), ending the run at once (Cline); Augment's
// get-models gets one model and every other call an empty object (Auggie).
const standinPort = "8919"

const standinPy = `import http.server, json, sys
log = sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        with open(log, "ab") as f:
            f.write(self.path.encode() + b" " + body.replace(b"\n", b" ") + b"\n")
        code, out = 200, {}
        if self.path.endswith("/chat/completions"):
            code, out = 400, {"error": {"message": "offline conformance model", "type": "invalid_request_error"}}
        elif self.path.endswith("/get-models"):
            m = {"name": "conformance", "internal_name": "conformance",
                 "suggested_prefix_char_count": 1, "suggested_suffix_char_count": 1}
            out = {"default_model": "conformance", "models": [m], "languages": [], "feature_flags": {}}
        b = json.dumps(out).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(b)))
        self.end_headers()
        self.wfile.write(b)
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
`

// askStandin runs argv (the client's prompt run) with the stand-in model next to it, in the
// check's sandbox, and returns the tool names of the first request that offered tools.
func askStandin(ctx context.Context, c *Check, env []string, argv ...string) ([]string, Output, error) {
	script := filepath.Join(c.Tmp, "standin.py")
	logPath := filepath.Join(c.Tmp, "standin-requests.log")
	if err := os.WriteFile(script, []byte(standinPy), 0o644); err != nil {
		return nil, Output{}, err
	}
	_ = os.Remove(logPath)
	// The model dies with the check (kill, and the sandbox's PID namespace).
	const sh = `python3 "$1" "$2" "$3" & model=$!
i=0; while [ $i -lt 50 ] && ! (echo > /dev/tcp/127.0.0.1/$2) 2>/dev/null; do sleep 0.1; i=$((i+1)); done
shift 3; "$@"; st=$?
kill $model 2>/dev/null; exit $st`
	full := append([]string{"bash", "-c", sh, "bash", script, standinPort, logPath}, argv...)
	o, err := c.Run(ctx, env, full...)
	if err != nil {
		return nil, o, err
	}
	tools, err := offeredTools(logPath)
	return tools, o, err
}

// offeredTools reads the stand-in's log ("<path> <json body>" per request) and returns the tool
// names of the first request with tools: OpenAI's tools[].function.name or Augment's
// tool_definitions[].name.
func offeredTools(logPath string) ([]string, error) {
	b, err := os.ReadFile(logPath)
	if err != nil {
		return nil, fmt.Errorf("the client sent the model no request")
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		_, body, _ := strings.Cut(sc.Text(), " ")
		var req struct {
			Tools []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
			ToolDefinitions []struct {
				Name string `json:"name"`
			} `json:"tool_definitions"`
		}
		if json.Unmarshal([]byte(body), &req) != nil {
			continue
		}
		var names []string
		for _, t := range req.Tools {
			names = append(names, t.Function.Name)
		}
		for _, t := range req.ToolDefinitions {
			names = append(names, t.Name)
		}
		if len(names) > 0 {
			return names, nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("no request to the model offered tools")
}

// configuredServers lists the server names under mcpServers in a JSON settings file.
func configuredServers(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var names []string
	for n := range doc.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, nil
}

// byOfferedTools marks each configured server connected when the model was offered one of its
// tools (owns says whether a tool name belongs to a server), failed otherwise.
func byOfferedTools(r *Result, configured, tools []string, owns func(tool, server string) bool) {
	for _, s := range configured {
		n := 0
		for _, t := range tools {
			if owns(t, s) {
				n++
			}
		}
		if n > 0 {
			r.add(s, Connected, "")
		} else {
			r.add(s, Failed, "configured, but none of its tools was offered to the model (not started, or it has no tools)")
		}
	}
}
