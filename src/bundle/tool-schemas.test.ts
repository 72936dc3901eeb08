// deriveTools on real files with the real compiler: output schemas from `trailblaze.tool<I, O>`,
// and a cache that follows the local files a tool imports, not only the tool file itself.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deriveTools } from "./tool-schemas.ts";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function workspace(): { dir: string; cache: string } {
  const dir = mkdtempSync(join(tmpdir(), "tool-schemas-"));
  made.push(dir);
  return { dir, cache: join(dir, ".cache") };
}

const TOOL = `import { trailblaze } from "@trailblaze/scripting";
import type { PriceInput, Price } from "./types";

/** Prices an item. */
export const shop_price = trailblaze.tool<PriceInput, Price>(async (input) => ({ sku: input.sku, cents: 1 }));

/** Says hello. */
export const shop_hello = trailblaze.tool<{ name: string }, string>(async (input) => \`hi \${input.name}\`);
`;

const want = () => true;

/** deriveTools for one file. */
async function derive(file: string, names: string[], cache: string) {
  return (await deriveTools([{ file, names, wantSchema: want }], cache)).get(file)!;
}

describe("deriveTools", () => {
  test("an object output type becomes an outputSchema; a string output gets none", async () => {
    const { dir, cache } = workspace();
    writeFileSync(
      join(dir, "types.ts"),
      "export interface PriceInput {\n  /** The item. */\n  sku: string;\n}\nexport interface Price { sku: string; cents: number }\n",
    );
    writeFileSync(join(dir, "tool.ts"), TOOL);
    const derived = await derive(join(dir, "tool.ts"), ["shop_price", "shop_hello"], cache);
    expect(derived.get("shop_price")).toEqual({
      description: "Prices an item.",
      inputSchema: { type: "object", properties: { sku: { type: "string", description: "The item." } }, required: ["sku"] },
      outputSchema: { type: "object", properties: { sku: { type: "string" }, cents: { type: "number" } }, required: ["sku", "cents"] },
    });
    expect(derived.get("shop_hello")).toEqual({
      description: "Says hello.",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
  }, 60_000);

  test("a change to an imported file alone derives the schemas again; an unchanged workspace reads the cache, moved or not", async () => {
    const where = workspace();
    writeFileSync(join(where.dir, "types.ts"), "export interface PriceInput { sku: string }\nexport interface Price { cents: number }\n");
    writeFileSync(join(where.dir, "tool.ts"), TOOL);
    const first = await derive(join(where.dir, "tool.ts"), ["shop_price"], where.cache);
    expect(first.get("shop_price")?.inputSchema).toEqual({ type: "object", properties: { sku: { type: "string" } }, required: ["sku"] });

    const again = await derive(join(where.dir, "tool.ts"), ["shop_price"], where.cache);
    expect(again).toEqual(first);
    expect(readdirSync(where.cache)).toHaveLength(1);
    const [entry] = readdirSync(where.cache);

    // Moved elsewhere with its .cache, the workspace reads the same entry (marked, so a result read
    // from it can be told from one derived again).
    const marked = JSON.parse(readFileSync(join(where.cache, entry!), "utf8")) as Record<string, { description?: string }>;
    writeFileSync(join(where.cache, entry!), JSON.stringify({ shop_price: { ...marked.shop_price, description: "read from the cache" } }));
    const dir = `${where.dir}-moved`;
    const cache = join(dir, ".cache");
    renameSync(where.dir, dir);
    made.push(dir);
    expect((await derive(join(dir, "tool.ts"), ["shop_price"], cache)).get("shop_price")?.description).toBe("read from the cache");
    expect(readdirSync(cache)).toEqual([entry!]);

    writeFileSync(
      join(dir, "types.ts"),
      "export interface PriceInput { sku: string; quantity?: number }\nexport interface Price { cents: number }\n",
    );
    const changed = await derive(join(dir, "tool.ts"), ["shop_price"], cache);
    expect(changed.get("shop_price")?.inputSchema).toEqual({
      type: "object",
      properties: { sku: { type: "string" }, quantity: { type: "number" } },
      required: ["sku"],
    });
    // The entry of the earlier version is removed: the cache holds one file per source file.
    expect(readdirSync(cache)).toHaveLength(1);

    // A file of the same name in another folder has an entry of its own, which the first one's edits leave alone.
    mkdirSync(join(dir, "other"));
    writeFileSync(join(dir, "other/types.ts"), "export interface PriceInput { id: number }\nexport interface Price { cents: number }\n");
    writeFileSync(join(dir, "other/tool.ts"), TOOL);
    await derive(join(dir, "other/tool.ts"), ["shop_price"], cache);
    writeFileSync(
      join(dir, "types.ts"),
      "export interface PriceInput { sku: string; note?: string }\nexport interface Price { cents: number }\n",
    );
    await derive(join(dir, "tool.ts"), ["shop_price"], cache);
    expect(readdirSync(cache)).toHaveLength(2);
    expect((await derive(join(dir, "other/tool.ts"), ["shop_price"], cache)).get("shop_price")?.inputSchema).toEqual({
      type: "object",
      properties: { id: { type: "number" } },
      required: ["id"],
    });
    expect(readdirSync(cache)).toHaveLength(2);
  }, 60_000);

  test("several files are derived together; each file's own types win where two files use the same type name", async () => {
    const { dir, cache } = workspace();
    const tool = (name: string, fields: string) =>
      `import { trailblaze } from "@trailblaze/scripting";\nexport interface Input { ${fields} }\n/** ${name}. */\nexport const ${name} = trailblaze.tool<Input>(async () => "ok");\n`;
    writeFileSync(join(dir, "a.ts"), tool("shop_a", "left: string;"));
    writeFileSync(join(dir, "b.ts"), tool("shop_b", "right: number;"));
    const derived = await deriveTools(
      [
        { file: join(dir, "a.ts"), names: ["shop_a"], wantSchema: want },
        { file: join(dir, "b.ts"), names: ["shop_b"], wantSchema: want },
      ],
      cache,
    );
    expect(derived.get(join(dir, "a.ts"))?.get("shop_a")).toEqual({
      description: "shop_a.",
      inputSchema: { type: "object", properties: { left: { type: "string" } }, required: ["left"] },
    });
    expect(derived.get(join(dir, "b.ts"))?.get("shop_b")).toEqual({
      description: "shop_b.",
      inputSchema: { type: "object", properties: { right: { type: "number" } }, required: ["right"] },
    });
    expect(readdirSync(dir).filter((name) => name.startsWith(".trailblaze-schema-"))).toEqual([]);
  }, 60_000);
});
