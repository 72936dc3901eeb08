// check-bundle against what really runs on-device (issue 42, item 8): a tiny tool per popular
// pure-JS package (fixtures/check-bundle-packages/), checked with checkBundle and then called in
// QuickJS. An error only where the call throws; a use behind a feature test at most a warning. And
// check-bundle's list of missing globals against the real guest's global object.

import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startQuickJsServer } from "../runtime-quickjs/index.ts";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
import { checkBundle } from "../src/bundle/check-bundle.ts";
import { HOST_ONLY_GLOBALS } from "../src/bundle/host-globals-scan.ts";
import { REPO, tempDir } from "./support/cli.ts";
import { byEngine, ENGINE } from "./support/quickjs-engine.ts";

const FIXTURES = "fixtures/check-bundle-packages";

/** The fixture's `use` tool called in QuickJS, as an on-device session runs it: its text, and whether it threw. */
async function callOnDevice(name: string): Promise<{ threw: boolean; text: string }> {
  const { code } = await bundleEntry(`${FIXTURES}/${name}.ts`, { cwd: REPO });
  await using server = await startQuickJsServer({ name, code });
  const client = new Client({ name: "check-bundle-packages", version: "1.0.0" });
  await client.connect(server.transport);
  const result = (await client.callTool({ name: "use", arguments: {} })) as { isError?: boolean; content: { text: string }[] };
  await client.close();
  return { threw: result.isError === true, text: result.content[0]!.text };
}

type Verdict = "error" | "warning" | "clean";

/** The ReferenceError's message, as each engine words it. */
const notDefined = (name: string) => byEngine({ quickjs: `'${name}' is not defined`, "quickjs-ng": `${name} is not defined` });

/**
 * What check-bundle said before this change is in the comment: dayjs failed on `self` in its UMD
 * wrapper, and Intl (dayjs's timezone plugin, a tool of our own) passed though it throws.
 */
const CASES: { fixture: string; verdict: Verdict; found: string[]; ran: string }[] = [
  // before: error, "uses self" (the UMD fallback esbuild's CommonJS wrapper never reaches)
  { fixture: "dayjs", verdict: "clean", found: [], ran: "2025-02-28" },
  // before: error for self only, three times; Intl was not known
  {
    fixture: "dayjs-timezone",
    verdict: "error",
    found: ["Intl node_modules/dayjs/plugin/timezone.js", "Intl node_modules/dayjs/plugin/timezone.js"],
    ran: notDefined("Intl"),
  },
  // uuid 14 calls crypto.getRandomValues unguarded: the same before and after
  {
    fixture: "uuid",
    verdict: "error",
    found: ["crypto node_modules/uuid/dist/rng.js", "crypto node_modules/uuid/dist/v4.js", "crypto node_modules/uuid/dist/v4.js"],
    ran: notDefined("crypto"),
  },
  { fixture: "lodash-es", verdict: "clean", found: [], ran: '[[[1,2],[3]],{"a":1,"b":2},"function"]' },
  { fixture: "superjson", verdict: "clean", found: [], ran: "1970-01-01T00:00:00.000Z" },
  { fixture: "immer", verdict: "clean", found: [], ran: '{"list":[1,2]}' },
  { fixture: "validator", verdict: "clean", found: [], ran: "true,false" },
  // before: clean
  { fixture: "intl", verdict: "error", found: [`Intl ${FIXTURES}/intl.ts`], ran: notDefined("Intl") },
  // before: error (TextEncoder); the branch depends on `window`, which the scan cannot know
  { fixture: "feature-tested", verdict: "warning", found: [`TextEncoder ${FIXTURES}/feature-tested.ts`], ran: "6" },
  // globalThis.TextEncoder ?, typeof Intl === "object", typeof self !== "undefined", a structuredClone polyfill
  { fixture: "guarded", verdict: "clean", found: [], ran: "no encoder,Thursday,none,true" },
];

describe("check-bundle's findings match what runs on-device", () => {
  for (const { fixture, verdict, found, ran } of CASES) {
    test(fixture, async () => {
      const checked = await checkBundle(`${FIXTURES}/${fixture}.ts`, { cwd: REPO });
      const said: Verdict = checked.problems.length > 0 ? "error" : checked.warnings.length > 0 ? "warning" : "clean";
      const named = [...checked.problems, ...checked.warnings].map((item) => `${/uses (\w+)/.exec(item.message)?.[1]} ${item.source}`);
      const onDevice = await callOnDevice(fixture);
      expect({ said, named, ok: checked.ok, tools: checked.tools, ran: onDevice.text }).toEqual({
        said: verdict,
        named: found,
        ok: verdict !== "error",
        tools: ["use"],
        ran,
      });
      // The rule itself: an error exactly when the tool throws on-device.
      expect(said === "error").toBe(onDevice.threw);
    });
  }
});

/** Bun globals that are Bun's own API (its build and HTML tools, its engine's hooks), not anything a package feature-tests. */
const BUN_ONLY = new Set(["BuildError", "BuildMessage", "ResolveError", "ResolveMessage", "HTMLRewriter", "Loader", "jsc"]);

describe("the globals check-bundle knows are missing on-device", () => {
  test("none exists in the guest, and every global of Bun's the guest lacks is one of them", async () => {
    const guest = new Set(JSON.parse((await callOnDevice("guest-globals")).text) as string[]);
    // quickjs-ng has performance (performance.now()); the default engine does not.
    const present = HOST_ONLY_GLOBALS.filter((name) => guest.has(name));
    expect(present).toEqual(ENGINE === "quickjs-ng" ? ["performance"] : []);
    const known = new Set<string>(HOST_ONLY_GLOBALS);
    // Bun's globals, from a fresh bun: this test process also holds what other tests' libraries defined.
    // (A script file, not `bun -e`, which also puts Node's modules on globalThis.)
    const script = join(tempDir("bun-globals"), "globals.ts");
    writeFileSync(script, "console.log(JSON.stringify(Object.getOwnPropertyNames(globalThis)));\n");
    const fresh = Bun.spawnSync([process.execPath, script], { env: { PATH: process.env.PATH ?? "" } });
    const bunGlobals = JSON.parse(fresh.stdout.toString()) as string[];
    const unknown = bunGlobals.filter(
      (name) => !guest.has(name) && !known.has(name) && !BUN_ONLY.has(name) && !name.startsWith("__") && !/^(?:on|webkit)/.test(name),
    );
    expect(unknown).toEqual([]);
  });
});
