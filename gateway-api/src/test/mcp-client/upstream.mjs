// The official TypeScript SDK client calling one of a tenant's upstream MCP tools through Airlock.
// Usage: node upstream.mjs <mcp url> <agent key> <tool> <arguments JSON>
// Prints the tool's listing and the call's result as one JSON object; exits non-zero on anything unexpected.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, key, name, args] = process.argv.slice(2);
if (!url || !key || !name || !args) {
  console.error("usage: node upstream.mjs <mcp url> <agent key> <tool> <arguments JSON>");
  process.exit(2);
}
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});
const client = new Client({ name: "airlock-ts-upstream-check", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
const tool = tools.find((t) => t.name === name) ?? null;
// The SDK checks structuredContent against the tool's outputSchema here.
const result = await client.callTool({ name, arguments: JSON.parse(args) });
console.log(JSON.stringify({ tool, result }));
await client.close();
