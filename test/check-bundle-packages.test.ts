// check-bundle against what really runs on-device (issue 52): a tiny tool per popular pure-JS
// package and per kind of guard (fixtures/check-bundle-packages/), checked with checkBundle, then
// called in QuickJS and on the host. The rule, for every case: an error exactly where the call
// throws on-device, a warning (and no error) exactly where it runs but its output differs from the
// host's, nothing otherwise. The measured set, 17 cases: 6 errors, each throwing on-device; 2 with
// warnings only, each differing from the host; 9 clean, none failing or differing. (Before this
// check read the syntax tree, a session measured 12 of 13 flagged cases failing on-device, and 1 of
// 14 passed cases always failing.)

import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { guestGlobals, startQuickJsServer } from "../runtime-quickjs/index.ts";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
import { checkBundle } from "../src/bundle/check-bundle.ts";
import { REPO } from "./support/cli.ts";
import { processAlive } from "./support/process-alive.ts";
import { byEngine } from "./support/quickjs-engine.ts";

const FIXTURES = "fixtures/check-bundle-packages";

/** The text of the fixture's `use` tool, and whether it failed. */
async function callUse(client: Client): Promise<{ threw: boolean; text: string }> {
  const result = (await client.callTool({ name: "use", arguments: {} })) as { isError?: boolean; content: { text: string }[] };
  return { threw: result.isError === true, text: result.content[0]!.text };
}

/** The fixture's `use` tool called in QuickJS, as an on-device session runs it. */
async function callOnDevice(name: string): Promise<{ threw: boolean; text: string }> {
  const { code } = await bundleEntry(`${FIXTURES}/${name}.ts`, { cwd: REPO });
  await using server = await startQuickJsServer({ name, code });
  const client = new Client({ name: "check-bundle-packages", version: "1.0.0" });
  await client.connect(server.transport);
  const result = await callUse(client);
  await client.close();
  return result;
}

/** The same tool as a bun subprocess, as the host agent runs it. */
async function callOnHost(name: string): Promise<{ threw: boolean; text: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["run", "--no-install", `${FIXTURES}/${name}.ts`],
    cwd: REPO,
    stderr: "ignore",
  });
  const client = new Client({ name: "check-bundle-packages", version: "1.0.0" });
  await client.connect(transport);
  const pid = transport.pid!;
  const result = await callUse(client);
  await client.close();
  expect(processAlive(pid)).toBe(false);
  return result;
}

type Verdict = "error" | "warning" | "clean";

/** The ReferenceError's message, as each engine words it. */
const notDefined = (name: string) => byEngine({ quickjs: `'${name}' is not defined`, "quickjs-ng": `${name} is not defined` });
const dayjsTimezone = "node_modules/dayjs/plugin/timezone.js";

/** `found`: `kind name source` of each problem and warning, in order. `ran`: what the call gave on-device. */
const CASES: { fixture: string; verdict: Verdict; found: string[]; ran: string }[] = [
  { fixture: "dayjs", verdict: "clean", found: [], ran: "2025-02-28" },
  {
    fixture: "dayjs-timezone",
    verdict: "error",
    found: [
      `host-global Intl.DateTimeFormat ${dayjsTimezone}`,
      `host-global Intl.DateTimeFormat ${dayjsTimezone}`,
      `locale toLocaleString("en-US", { timeZone: t2 }) ${dayjsTimezone}`,
    ],
    ran: notDefined("Intl"),
  },
  {
    fixture: "uuid",
    verdict: "error",
    found: [
      "host-global crypto.getRandomValues node_modules/uuid/dist/rng.js",
      "host-global crypto.randomUUID node_modules/uuid/dist/v4.js",
      "host-global crypto.randomUUID node_modules/uuid/dist/v4.js",
    ],
    ran: notDefined("crypto"),
  },
  { fixture: "lodash-es", verdict: "clean", found: [], ran: '[[[1,2],[3]],{"a":1,"b":2},"function"]' },
  { fixture: "superjson", verdict: "clean", found: [], ran: "1970-01-01T00:00:00.000Z" },
  { fixture: "immer", verdict: "clean", found: [], ran: '{"list":[1,2]}' },
  { fixture: "validator", verdict: "clean", found: [], ran: "true,false" },
  { fixture: "zod", verdict: "clean", found: [], ran: '[{"email":"a@b.co","age":30,"tags":["x"]},false,["email","age","tags"]]' },
  { fixture: "date-fns", verdict: "clean", found: [], ran: "2024-03-01 Friday,301,3 days" },
  {
    fixture: "date-fns-intl",
    verdict: "error",
    found: ["host-global Intl.DateTimeFormat node_modules/date-fns/intlFormat.js"],
    ran: notDefined("Intl"),
  },
  // Before: an error (TextEncoder, behind a minified `typeof Buffer` test); the guest now has
  // TextEncoder. finance.amount's autoFormat formats with a locale's grouping the guest lacks.
  {
    fixture: "faker",
    verdict: "warning",
    found: ["locale toLocaleString(void 0, { minimumFractionDigits: n2 }) node_modules/@faker-js/faker/dist/base-BpJm8uRb.js"],
    ran: "Janae Wolff,Kara28@hotmail.com,1853.54",
  },
  { fixture: "intl", verdict: "error", found: [`host-global Intl.DateTimeFormat ${FIXTURES}/intl.ts`], ran: notDefined("Intl") },
  // Before: clean, though the host prints 1.234.567,891.
  { fixture: "locale", verdict: "warning", found: [`locale toLocaleString("de-DE") ${FIXTURES}/locale.ts`], ran: "1234567.891" },
  // Before: a warning written out, an error minified; on-device both branches throw.
  {
    fixture: "other-global",
    verdict: "error",
    found: [
      `host-global crypto.getRandomValues ${FIXTURES}/other-global.min.js`,
      `host-global crypto.getRandomValues ${FIXTURES}/other-global.ts`,
    ],
    ran: notDefined("crypto"),
  },
  { fixture: "caught", verdict: "clean", found: [], ran: '{"list":[1,{"a":"b"}]}' },
  // globalThis.TextEncoder ?, typeof Intl === "object", typeof window !== "undefined", a structuredClone polyfill
  { fixture: "guarded", verdict: "clean", found: [], ran: "2,Thursday,none,true" },
  {
    fixture: "requires-fetch",
    verdict: "error",
    found: [`host-global typeof fetch !== "function" ${FIXTURES}/requires-fetch.ts`],
    ran: "this tool needs fetch",
  },
];

/** What a finding names: the global, the call, or the condition, between the location and the words after it. */
function named(message: string): string {
  const match = /: (?:uses|calls) (.+?)(?:, which does not exist|, whose locale)|: throws on-device, where `(.+?)` takes/.exec(message);
  return match?.[1] ?? match?.[2] ?? message;
}

describe("check-bundle's findings match what runs on-device", () => {
  for (const { fixture, verdict, found, ran } of CASES) {
    test(fixture, async () => {
      const [checked, onDevice, onHost] = await Promise.all([
        checkBundle(`${FIXTURES}/${fixture}.ts`, { cwd: REPO }),
        callOnDevice(fixture),
        callOnHost(fixture),
      ]);
      const said: Verdict = checked.problems.length > 0 ? "error" : checked.warnings.length > 0 ? "warning" : "clean";
      const items = [...checked.problems, ...checked.warnings].map((item) => `${item.kind} ${named(item.message)} ${item.source}`);
      expect({ said, found: items, ok: checked.ok, tools: checked.tools, ran: onDevice.text }).toEqual({
        said: verdict,
        found,
        ok: verdict !== "error",
        tools: ["use"],
        ran,
      });
      // The rule itself: an error exactly where the call throws on-device, a warning exactly where
      // it runs and its output differs from the host's.
      expect(onHost.threw).toBe(false);
      expect({ error: said === "error", warning: said === "warning" }).toEqual({
        error: onDevice.threw,
        warning: !onDevice.threw && onDevice.text !== onHost.text,
      });
    });
  }
});

describe("the globals check-bundle decides with are the guest's", () => {
  test("every global a bundled tool finds on-device is one, with its typeof; the host's the guest lacks are not", async () => {
    const guest = await guestGlobals();
    const seen = JSON.parse((await callOnDevice("guest-globals")).text) as Record<string, string>;
    // zod puts its registry on globalThis when the bundle loads it.
    const bundleDefined = new Set(["__zod_globalRegistry"]);
    expect(Object.entries(seen).filter(([name, type]) => !bundleDefined.has(name) && guest.get(name) !== type)).toEqual([]);
    expect(["TextEncoder", "TextDecoder", "URL", "atob", "setTimeout", "toString"].map((name) => guest.get(name))).toEqual([
      "function",
      "function",
      "function",
      "function",
      "function",
      "function",
    ]);
    const absent = [
      "fetch",
      "process",
      "Buffer",
      "crypto",
      "Intl",
      "structuredClone",
      "self",
      "window",
      "navigator",
      "require",
      "module",
      "exports",
    ];
    expect(absent.filter((name) => guest.has(name))).toEqual([]);
    // quickjs-ng has performance (performance.now()) and Error.captureStackTrace; the default engine has neither.
    expect([guest.get("performance"), guest.get("Error.captureStackTrace")]).toEqual(
      byEngine({ quickjs: [undefined, undefined], "quickjs-ng": ["object", "function"] }),
    );
  });
});
