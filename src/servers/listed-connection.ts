// Stands in for a server's McpConnection in a session that only lists tools, when its listing
// came from the cache (listing-cache.ts): the server was not started, so there is nothing to
// close, nothing that can die, and no tool to call.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { fatalError, type ToolResult } from "../core/tool-result.ts";
import type { ServerConnection } from "./launch.ts";
import type { ServerHandshake } from "./mcp-connection.ts";
import type { Listing } from "./listing-cache.ts";

export class ListedConnection implements ServerConnection {
  readonly name: string;
  readonly handshake: ServerHandshake;
  readonly #tools: Tool[];

  constructor(name: string, listing: Listing) {
    this.name = name;
    this.handshake = listing.handshake;
    this.#tools = listing.tools;
  }

  /** A list-only session calls no tool: one that does is a bug in the command that opened it. */
  async call(tool: string): Promise<ToolResult> {
    return fatalError(
      `${tool}: MCP server ${this.name} was not started: this session only lists tools (listOnly), so none of them can be called`,
    );
  }

  async listTools(): Promise<Tool[]> {
    return this.#tools;
  }

  diagnostics(): readonly string[] {
    return [];
  }

  outputMark(): number {
    return 0;
  }

  async outputSince(): Promise<readonly string[]> {
    return [];
  }

  get death(): Error | undefined {
    return undefined;
  }

  get inFlight(): number {
    return 0;
  }

  onDeath(): void {}

  onLog(): void {}

  onToolsChanged(): void {}

  async close(): Promise<void> {}
}
