#!/usr/bin/env python3
"""sync-ai-rules MCP server (example, standard library only).

A thin MCP adapter over the rule store in ../rules/ of this extension.
Speaks newline-delimited JSON-RPC 2.0 (MCP stdio transport); logs to stderr only.
"""
import glob
import json
import os
import sys

NAME, VERSION = "sync-ai-rules", "1.2.0"
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
DEFAULT_PROTOCOL = "2025-06-18"
RULES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rules")
TOOLS = [
    {"name": "sync_status",
     "description": "Report the canonical rule store and how many rules it holds.",
     "inputSchema": {"type": "object", "properties": {}}},
]


def log(msg):
    sys.stderr.write("%s: %s\n" % (NAME, msg))
    sys.stderr.flush()


def send(msg):
    sys.stdout.buffer.write(json.dumps(msg).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


def call_tool(name, arguments):
    if name == "sync_status":
        rules = sorted(os.path.basename(p) for p in glob.glob(os.path.join(RULES_DIR, "*.md")))
        status = {"store": RULES_DIR, "rule_count": len(rules), "rules": rules,
                  "python": sys.executable, "in_sync": True}
        return json.dumps(status), False
    return "unknown tool: %r" % (name,), True


def handle(msg):
    """Return the reply to one message, or None for notifications and stray responses."""
    if not isinstance(msg, dict):
        return {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request"}}
    if "id" not in msg or "method" not in msg:
        return None
    rid, method = msg["id"], msg["method"]
    params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
    if method == "initialize":
        asked = params.get("protocolVersion")
        result = {"protocolVersion": asked if asked in PROTOCOL_VERSIONS else DEFAULT_PROTOCOL,
                  "capabilities": {"tools": {}}, "serverInfo": {"name": NAME, "version": VERSION}}
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        args = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
        try:
            text, is_error = call_tool(params.get("name"), args)
        except Exception as exc:  # a failing tool is reported, never fatal
            text, is_error = "%s: %s" % (type(exc).__name__, exc), True
        result = {"content": [{"type": "text", "text": text}], "isError": is_error}
    else:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}}
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def main():
    log("rule store %s (python %s)" % (RULES_DIR, sys.executable))
    try:
        for line in iter(sys.stdin.buffer.readline, b""):
            if not line.strip():
                continue
            try:
                msg = json.loads(line.decode("utf-8"))
            except ValueError as exc:
                send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error: %s" % exc}})
                continue
            reply = handle(msg)
            if reply is not None:
                send(reply)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    log("stdin closed, exiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
