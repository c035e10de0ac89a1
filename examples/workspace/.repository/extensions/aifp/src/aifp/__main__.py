"""Entry point for ``python -m aifp [--root DIR | --root=DIR]``: the aifp MCP server on stdio.

Speaks newline-delimited JSON-RPC 2.0 (MCP stdio transport); logs to stderr only.
"""
import argparse
import json
import os
import sys

from aifp import __version__

NAME = "aifp"
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
DEFAULT_PROTOCOL = "2025-06-18"
TOOLS = [
    {"name": "aifp_status", "description": "Show the aifp project status for the workspace root.",
     "inputSchema": {"type": "object", "properties": {}}},
    {"name": "aifp_run", "description": "Run an aifp command (this example only echoes it back).",
     "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}, "required": ["command"]}},
]


def log(msg):
    sys.stderr.write("%s: %s\n" % (NAME, msg))
    sys.stderr.flush()


def send(msg):
    sys.stdout.buffer.write(json.dumps(msg).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


def call_tool(root, name, arguments):
    if name == "aifp_status":
        return json.dumps({"root": root, "version": __version__, "package": os.path.dirname(__file__)}), False
    if name == "aifp_run":
        command = arguments.get("command")
        if not isinstance(command, str) or not command:
            return "aifp_run: missing string argument 'command'", True
        return json.dumps({"command": command, "root": root, "status": "ok"}), False
    return "unknown tool: %r" % (name,), True


def handle(root, msg):
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
                  "capabilities": {"tools": {}}, "serverInfo": {"name": NAME, "version": __version__}}
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        args = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
        try:
            text, is_error = call_tool(root, params.get("name"), args)
        except Exception as exc:  # a failing tool is reported, never fatal
            text, is_error = "%s: %s" % (type(exc).__name__, exc), True
        result = {"content": [{"type": "text", "text": text}], "isError": is_error}
    else:
        return {"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}}
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m aifp", description="aifp MCP server (stdio)")
    parser.add_argument("--root", default=".", help="project root (default: current directory)")
    opts = parser.parse_args(argv)
    root = os.path.abspath(opts.root)
    if not os.path.isdir(root):
        parser.error("--root %s: not an existing directory" % opts.root)
    log("project root %s" % root)
    try:
        for line in iter(sys.stdin.buffer.readline, b""):
            if not line.strip():
                continue
            try:
                msg = json.loads(line.decode("utf-8"))
            except ValueError as exc:
                send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error: %s" % exc}})
                continue
            reply = handle(root, msg)
            if reply is not None:
                send(reply)
    except (BrokenPipeError, KeyboardInterrupt):
        pass
    log("stdin closed, exiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
