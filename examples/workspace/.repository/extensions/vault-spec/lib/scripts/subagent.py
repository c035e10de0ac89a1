#!/usr/bin/env python3
"""vs-subagent-mcp: VaultSpec's sub-agent MCP server (example, standard library only).

Usage: subagent.py serve --root DIR

Speaks newline-delimited JSON-RPC 2.0 (MCP stdio transport) on stdin/stdout.
Logs go to stderr only.
"""
import argparse
import glob
import json
import os
import sys

NAME, VERSION = "vs-subagent-mcp", "0.4.0"
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
DEFAULT_PROTOCOL = "2025-06-18"
NO_ARGS = {"type": "object", "properties": {}}
TOOLS = [
    {"name": "list_agents", "description": "List the agents defined in .vaultspec/agents/.", "inputSchema": NO_ARGS},
    {"name": "get_locks", "description": "List the vault locks currently held by sub-agents.", "inputSchema": NO_ARGS},
]


def log(msg):
    sys.stderr.write("%s: %s\n" % (NAME, msg))
    sys.stderr.flush()


def send(msg):
    sys.stdout.buffer.write(json.dumps(msg).encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()


def call_tool(root, name, arguments):
    if name == "list_agents":
        files = sorted(glob.glob(os.path.join(root, ".vaultspec", "agents", "*.md")))
        agents = [{"name": os.path.splitext(os.path.basename(f))[0],
                   "file": os.path.relpath(f, root).replace(os.sep, "/")} for f in files]
        return json.dumps({"root": root, "agents": agents}), False
    if name == "get_locks":
        return json.dumps([]), False
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
                  "capabilities": {"tools": {}}, "serverInfo": {"name": NAME, "version": VERSION}}
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
    parser = argparse.ArgumentParser(prog="subagent.py", description="VaultSpec sub-agent MCP server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the MCP server on stdio")
    serve.add_argument("--root", required=True, help="the workspace root (an existing directory)")
    opts = parser.parse_args(argv)
    if not os.path.isdir(opts.root):
        serve.error("--root %s: not an existing directory" % opts.root)  # exits 2
    env_root = os.environ.get("VAULTSPEC_MCP_ROOT_DIR")
    if env_root is not None and not os.path.isdir(env_root):
        serve.error("VAULTSPEC_MCP_ROOT_DIR=%s: not an existing directory" % env_root)
    root = os.path.abspath(opts.root)
    log("serving vault at %s" % root)
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
