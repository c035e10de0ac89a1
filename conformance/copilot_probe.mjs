// Asks GitHub Copilot CLI's runtime, through the SDK it ships, which MCP servers a session started
// in DIR loads and how each one did. Prints one JSON line. Used by conformance/copilot.go.
// usage: node copilot_probe.mjs SDK_INDEX_JS DIR RUNTIME_BINARY
const [sdkPath, dir, runtime] = process.argv.slice(2);
const { CopilotClient, approveAll, RuntimeConnection } = await import(sdkPath);
const client = new CopilotClient({
  connection: RuntimeConnection.forStdio({ path: runtime }),
  workingDirectory: dir,
  useLoggedInUser: false,
});
let result;
try {
  // enableConfigDiscovery: read the workspace's .mcp.json like the interactive CLI does.
  // Folder trust comes from ~/.copilot/config.json (trustedFolders), written by the harness.
  const session = await client.createSession({
    onPermissionRequest: approveAll,
    workingDirectory: dir,
    enableConfigDiscovery: true,
  });
  result = await session.rpc.mcp.list();
} catch (e) {
  result = { error: String((e && e.message) || e) };
}
console.log(JSON.stringify(result));
await client.stop().catch(() => {});
process.exit(0);
