// The W1 baseline: the ten lines a user would write with the raw SDK to list a server's tools,
// run as its own process (`bun bench/raw-client.ts <server.ts>`).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const client = new Client({ name: "raw", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ["run", process.argv[2]!], stderr: "ignore" }));
const { tools } = await client.listTools();
console.log(JSON.stringify(tools.map((tool) => tool.name)));
await client.close();
