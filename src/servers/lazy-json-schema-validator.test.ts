import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation/types.js";
import { LazyJsonSchemaValidator } from "./lazy-json-schema-validator.ts";

const SUM: JsonSchemaType = {
  type: "object",
  properties: { sum: { type: "number" }, at: { type: "string", format: "date-time" } },
  required: ["sum"],
};

describe("LazyJsonSchemaValidator", () => {
  test("gives the SDK's ajv results and messages", () => {
    const lazy = new LazyJsonSchemaValidator().getValidator(SUM);
    const eager = new AjvJsonSchemaValidator().getValidator(SUM);
    for (const input of [{ sum: 3 }, { sum: "3" }, {}, { sum: 1, at: "yesterday" }, { sum: 1, at: "2026-11-24T10:00:00Z" }]) {
      expect(lazy(input)).toEqual(eager(input));
    }
    expect(lazy({ sum: "3" })).toEqual({ valid: false, data: undefined, errorMessage: "data/sum must be number" });
  });

  test("compiles a schema only when a result is first checked against it", () => {
    // ajv rejects this schema when it compiles it: getValidator does not, the first check does.
    const validate = new LazyJsonSchemaValidator().getValidator({ type: "no-such-type" } as unknown as JsonSchemaType);
    expect(() => validate({})).toThrow("type must be JSONType or JSONType[]: no-such-type");
  });

  test("compiles each schema once per process, and keeps schemas sharing an $id apart", () => {
    const compiles: unknown[] = [];
    // The provider as the lazy one loads it (require: the SDK's CommonJS build).
    const Provider = (require("@modelcontextprotocol/sdk/validation/ajv") as { AjvJsonSchemaValidator: typeof AjvJsonSchemaValidator })
      .AjvJsonSchemaValidator;
    const original = Provider.prototype.getValidator;
    Provider.prototype.getValidator = function (this: AjvJsonSchemaValidator, schema: JsonSchemaType) {
      compiles.push(schema);
      return original.call(this, schema);
    } as typeof original;
    try {
      const once: JsonSchemaType = { type: "object", properties: { once: { type: "integer" } } };
      for (let session = 0; session < 3; session++)
        expect(new LazyJsonSchemaValidator().getValidator(structuredClone(once))({ once: 1 }).valid).toBe(true);
      expect(compiles).toHaveLength(1);

      const v1 = new LazyJsonSchemaValidator().getValidator({
        $id: "https://example.test/shared.json",
        type: "object",
        required: ["a"],
      } as JsonSchemaType);
      const v2 = new LazyJsonSchemaValidator().getValidator({
        $id: "https://example.test/shared.json",
        type: "object",
        required: ["b"],
      } as JsonSchemaType);
      expect([v1({ a: 1 }).valid, v1({ b: 1 }).valid, v2({ b: 1 }).valid, v2({ a: 1 }).valid]).toEqual([true, false, true, false]);
    } finally {
      Provider.prototype.getValidator = original;
    }
  });

  test("is what the SDK Client checks structuredContent with", async () => {
    const server = new Server({ name: "sums", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: "sum", inputSchema: { type: "object" }, outputSchema: SUM }],
    }));
    server.setRequestHandler(CallToolRequestSchema, ({ params }) => ({ content: [], structuredContent: { sum: params.arguments?.sum } }));
    const client = new Client({ name: "t", version: "1" }, { jsonSchemaValidator: new LazyJsonSchemaValidator() });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    await client.listTools();
    expect((await client.callTool({ name: "sum", arguments: { sum: 5 } })).structuredContent).toEqual({ sum: 5 });
    const error = await client.callTool({ name: "sum", arguments: { sum: "five" } }).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      "MCP error -32602: Structured content does not match the tool's output schema: data/sum must be number",
    );
    await client.close();
  });
});
