"""The conformance harness's own MCP server: three tools (alpha, beta, gamma), over stdio, or over
Streamable HTTP on loopback (--http PORT --token VALUE), where a request without the header
"Authorization: Bearer VALUE" is refused with 401. So a client connects to the HTTP server only if
it sent the header value the harness put in its environment, which repo wrote as a reference.
Python standard library only; nothing leaves the machine."""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOOLS = [{"name": n, "description": "conformance tool " + n,
          "inputSchema": {"type": "object", "properties": {}}} for n in ("alpha", "beta", "gamma")]
VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
EMPTY = {"ping": {}, "resources/list": {"resources": []}, "prompts/list": {"prompts": []},
         "resources/templates/list": {"resourceTemplates": []}}


def answer(msg):
    """The response to one JSON-RPC message, or None for a notification."""
    if not isinstance(msg, dict) or "id" not in msg:
        return None
    method, rid = msg.get("method"), msg["id"]
    if method == "initialize":
        asked = (msg.get("params") or {}).get("protocolVersion")
        result = {"protocolVersion": asked if asked in VERSIONS else "2025-06-18",
                  "capabilities": {"tools": {"listChanged": False}},
                  "serverInfo": {"name": "repo-conformance", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        name = (msg.get("params") or {}).get("name", "")
        result = {"content": [{"type": "text", "text": "called " + name}], "isError": False}
    elif method in EMPTY:
        result = EMPTY[method]
    else:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "method not found: %s" % method}}
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def stdio():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            out = answer(json.loads(line))
        except ValueError:
            continue
        if out is not None:
            sys.stdout.write(json.dumps(out) + "\n")
            sys.stdout.flush()


def http(port, token, ready):
    want = "Bearer " + token

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def reply(self, code, body=None):
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(code)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Mcp-Session-Id", "conformance")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def authorized(self):
            if self.headers.get("Authorization") == want:
                return True
            self.reply(401, {"error": "unauthorized: the Authorization header is not the one expected"})
            return False

        def do_POST(self):
            if not self.authorized():
                return
            size = int(self.headers.get("Content-Length") or 0)
            try:
                msg = json.loads(self.rfile.read(size) or b"null")
            except ValueError:
                self.reply(400, {"error": "bad JSON"})
                return
            if isinstance(msg, list):
                out = [a for a in (answer(m) for m in msg) if a is not None]
                self.reply(200, out) if out else self.reply(202)
                return
            out = answer(msg)
            self.reply(200, out) if out is not None else self.reply(202)

        def do_GET(self):
            if self.authorized():
                self.reply(405)

        def do_DELETE(self):
            if self.authorized():
                self.reply(200)

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    if ready:
        open(ready, "w").close()
    server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--http":
        http(int(sys.argv[2]), sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--token" else "",
             sys.argv[6] if len(sys.argv) > 6 and sys.argv[5] == "--ready" else "")
    else:
        stdio()
