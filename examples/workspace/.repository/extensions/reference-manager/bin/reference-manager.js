#!/usr/bin/env node
// reference-manager: a small academic reference CLI (example, Node built-ins only).
//   reference-manager --help | list | mcp
// The library is a CSL-JSON array at $REFERENCE_MANAGER_LIBRARY (default ./references.json).
// `mcp` runs the MCP server: newline-delimited JSON-RPC 2.0 on stdio, logs on stderr only.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const NAME = 'reference-manager';
const VERSION = '0.12.0';
const PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const DEFAULT_PROTOCOL = '2025-06-18';
const LIBRARY = process.env.REFERENCE_MANAGER_LIBRARY || path.resolve('references.json');
const USAGE = `usage: reference-manager <command>

commands:
  list     print the references in the library
  mcp      run the MCP server on stdin/stdout
  --help   show this help

library: ${LIBRARY} (set REFERENCE_MANAGER_LIBRARY to change)
`;
const TOOLS = [
  { name: 'search', description: 'Search references by title (case-insensitive substring).',
    inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
  { name: 'list', description: 'List all references in the library.',
    inputSchema: { type: 'object', properties: {} } },
];

const log = (msg) => process.stderr.write(`${NAME}: ${msg}\n`);
const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');
// Read on every call: edits made with the CLI are seen without watching the file.
const loadLibrary = () => JSON.parse(fs.readFileSync(LIBRARY, 'utf8'));
const brief = (ref) => ({ id: ref.id, title: ref.title, issued: ref.issued });

function callTool(name, args) {
  if (name === 'search') {
    if (typeof args.query !== 'string') return ["search: missing string argument 'query'", true];
    const q = args.query.toLowerCase();
    const hits = loadLibrary().filter((r) => String(r.title || '').toLowerCase().includes(q));
    return [JSON.stringify(hits.map(brief)), false];
  }
  if (name === 'list') return [JSON.stringify(loadLibrary().map(brief)), false];
  return [`unknown tool: ${JSON.stringify(name)}`, true];
}

function handle(msg) {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
    return { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } };
  }
  if (!('id' in msg) || !('method' in msg)) return null; // notification or stray response
  const params = msg.params && typeof msg.params === 'object' ? msg.params : {};
  let result;
  switch (msg.method) {
    case 'initialize':
      result = {
        protocolVersion: PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : DEFAULT_PROTOCOL,
        capabilities: { tools: {} },
        serverInfo: { name: NAME, version: VERSION },
      };
      break;
    case 'ping': result = {}; break;
    case 'tools/list': result = { tools: TOOLS }; break;
    case 'tools/call': {
      let text, isError;
      try {
        [text, isError] = callTool(params.name, params.arguments && typeof params.arguments === 'object' ? params.arguments : {});
      } catch (err) {
        [text, isError] = [`${params.name}: ${err.message}`, true];
      }
      result = { content: [{ type: 'text', text }], isError };
      break;
    }
    default:
      return { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } };
  }
  return { jsonrpc: '2.0', id: msg.id, result };
}

function serve() {
  log(`serving library ${LIBRARY}`);
  process.stdout.on('error', () => process.exit(0)); // client went away
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (err) {
      send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `Parse error: ${err.message}` } });
      return;
    }
    const reply = handle(msg);
    if (reply) send(reply);
  });
  rl.on('close', () => log('stdin closed, exiting'));
}

const command = process.argv[2];
if (command === 'mcp') {
  serve();
} else if (command === 'list') {
  for (const ref of loadLibrary()) console.log(`${ref.id}\t${ref.title}`);
} else if (command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(USAGE);
} else {
  process.stderr.write(command ? `reference-manager: unknown command ${JSON.stringify(command)}\n\n${USAGE}` : USAGE);
  process.exitCode = 2;
}
