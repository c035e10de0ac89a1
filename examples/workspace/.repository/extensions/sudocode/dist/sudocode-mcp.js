#!/usr/bin/env node
// sudocode-mcp: Sudocode's MCP server (example, Node built-ins only).
// Configured by environment variables:
//   SUDOCODE_WORKING_DIR  project folder holding .sudocode/ (default: current directory)
//   SUDOCODE_TOKEN        optional; unset or an unexpanded "${SUDOCODE_TOKEN}" means local-only mode
// Speaks newline-delimited JSON-RPC 2.0 on stdio; logs on stderr only.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const NAME = 'sudocode';
const VERSION = '0.3.1';
const PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const DEFAULT_PROTOCOL = '2025-06-18';
const WORKING_DIR = path.resolve(process.env.SUDOCODE_WORKING_DIR || process.cwd());
const ISSUES = path.join(WORKING_DIR, '.sudocode', 'issues.jsonl');
const TOKEN = process.env.SUDOCODE_TOKEN;
const HAS_TOKEN = Boolean(TOKEN) && !/^\$\{.*\}$/.test(TOKEN);
const TOOLS = [
  { name: 'ready', description: 'Find open issues that have no open blockers.',
    inputSchema: { type: 'object', properties: {} } },
  { name: 'list_issues', description: 'List issues, optionally filtered by status.',
    inputSchema: { type: 'object', properties: { status: { type: 'string', enum: ['open', 'in_progress', 'blocked', 'closed'] } } } },
];

const log = (msg) => process.stderr.write(`${NAME}: ${msg}\n`);
const send = (msg) => process.stdout.write(JSON.stringify(msg) + '\n');

function loadIssues() {
  if (!fs.existsSync(ISSUES)) return [];
  return fs.readFileSync(ISSUES, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

function callTool(name, args) {
  const issues = loadIssues();
  if (name === 'ready') {
    const open = new Set(issues.filter((i) => i.status !== 'closed').map((i) => i.id));
    const ready = issues.filter((i) => i.status === 'open' && !(i.blocked_by || []).some((b) => open.has(b)));
    return [JSON.stringify({ working_dir: WORKING_DIR, issues: ready }), false];
  }
  if (name === 'list_issues') {
    const status = typeof args.status === 'string' ? args.status : null;
    return [JSON.stringify(issues.filter((i) => !status || i.status === status)), false];
  }
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

log(`working dir ${WORKING_DIR}; ${HAS_TOKEN ? 'token set' : 'no SUDOCODE_TOKEN, local-only mode'}`);
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
