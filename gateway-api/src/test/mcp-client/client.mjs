// A second, independent MCP client: the official TypeScript SDK, as an agent framework would use it.
// Usage: node client.mjs <mcp url> <agent key>
// Prints one JSON object per step on stdout; exits non-zero on anything unexpected.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, key] = process.argv.slice(2);
if (!url || !key) {
  console.error("usage: node client.mjs <mcp url> <agent key>");
  process.exit(2);
}

const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});
const client = new Client({ name: "airlock-ts-check", version: "1.0.0" });
await client.connect(transport);
const print = (step, value) => console.log(JSON.stringify({ step, ...value }));

print("initialize", { protocolVersion: transport.protocolVersion, server: client.getServerVersion() });

const { tools } = await client.listTools();
print("tools", { tools: tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema, annotations: t.annotations ?? null,
  hasOutputSchema: t.outputSchema !== undefined })) });

// The SDK checks structuredContent against the tool's outputSchema here.
const echo = await client.callTool({ name: "echo", arguments: { message: "from typescript" } });
print("echo", { result: echo });

const bad = await client.callTool({ name: "echo", arguments: { message: 42 } });
print("bad-arguments", { result: bad });

// A tool that waits for a human: progress arrives while the call waits, then the pending answer.
const progress = [];
const pending = await client.callTool({ name: "release", arguments: { note: "typescript" } }, undefined, {
  onprogress: (p) => progress.push(p),
  timeout: 60000,
});
print("pending", { result: pending, progress });

// Cancelling a call in flight: the SDK sends notifications/cancelled for it.
const controller = new AbortController();
const slow = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal, timeout: 60000 });
await new Promise((resolve) => setTimeout(resolve, 2000));
controller.abort("the user pressed stop");
try {
  await slow;
  print("cancel", { aborted: false });
} catch (error) {
  print("cancel", { aborted: true, error: String(error) });
}
// The SDK sends notifications/cancelled without waiting for it; closing at once could cut it off.
await new Promise((resolve) => setTimeout(resolve, 1500));

await client.close();
