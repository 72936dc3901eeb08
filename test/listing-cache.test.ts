// Commands that only list tools (`tools`, `types`, `check`) take a QuickJS server's listing from
// .cache/trailblaze-listings/ in later processes instead of evaluating its bundle: same output,
// same warnings and errors. Real processes, real bundles in real QuickJS (fixtures/listing-cache,
// whose servers log a line from their top-level code: the test counts those lines). The tests run
// in order on one copy of the workspace, each starting from the cache the previous ones left.

import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliProcess, REPO, tempDir, type CliRun } from "./support/cli.ts";
import { copyFixture } from "./support/workspace-copy.ts";

// Inside the repository, so the workspace's scripts resolve its node_modules.
mkdirSync(join(REPO, ".cache"), { recursive: true });
const dir = mkdtempSync(join(REPO, ".cache", "listing-cache-"));
copyFixture(join(REPO, "fixtures/listing-cache"), dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const logs = tempDir("listing-cache-logs");
const LISTINGS = join(dir, ".cache/trailblaze-listings");
/** Each test starts several fresh CLI processes: generous, for a loaded machine. */
const PROCESSES_TIMEOUT_MS = 120_000;

/** How many times each server's top-level code ran so far, from the console logs of every session. */
function evaluations(): Record<string, number> {
  const counts: Record<string, number> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.startsWith("quickjs_console_")) {
        for (const [, name] of readFileSync(path, "utf8").matchAll(/ (\w+)\.ts evaluated$/gm)) counts[name!] = (counts[name!] ?? 0) + 1;
      }
    }
  };
  if (existsSync(logs)) walk(logs);
  return counts;
}

const run = (argv: string[], env: Record<string, string> = {}): Promise<CliRun> => cliProcess([...argv, "--logs", logs], { cwd: dir, env });
const listTools = (target = "listed", env: Record<string, string> = {}) =>
  run(["tools", "--target", target, "--agent", "on-device", "--json"], env);
/** The listing files of one server (by its file name). */
const listingsOf = (server: string) => (existsSync(LISTINGS) ? readdirSync(LISTINGS).filter((name) => name.startsWith(`${server}-`)) : []);
const listingFile = () => join(LISTINGS, listingsOf("listed")[0]!);
const serverTools = (stdout: string) =>
  (JSON.parse(stdout) as { tools: { name: string; source: string; description: string }[] }).tools.filter(
    (tool) => tool.source !== "builtin",
  );

describe("tools --agent on-device from the listing cache", () => {
  let first: CliRun;

  test(
    "the second run in a fresh process prints the same JSON and warnings without evaluating the bundle",
    async () => {
      first = await listTools();
      expect(first.code).toBe(0);
      expect(evaluations()).toEqual({ listed: 1 });
      // All three pages; the host-only tool skipped by its _meta, the wrongly typed _meta warned about.
      expect(serverTools(first.stdout).map((tool) => tool.name)).toEqual(["listed_echo", "listed_badMeta"]);
      expect(JSON.parse(first.stdout).skipped).toContainEqual({
        name: "listed_hostOnly",
        source: "tools/listed.ts",
        reason: "trailblaze/requiresHost",
        detail: "host-only tool, session agent is on-device",
      });
      expect(first.stderr).toBe(
        'warning: tools/listed.ts: tool listed_badMeta: _meta["trailblaze/requiresHost"] should be a boolean, got a string ("yes"); using false\n',
      );
      const entry = JSON.parse(readFileSync(listingFile(), "utf8"));
      expect(entry.listing.handshake).toEqual({
        serverInfo: { name: "listed", version: "1.0.0" },
        capabilities: { tools: {} },
        instructions: "Tools of the listing-cache fixture",
      });

      const second = await listTools();
      expect(second).toEqual(first);
      expect(evaluations()).toEqual({ listed: 1 });
    },
    PROCESSES_TIMEOUT_MS,
  );

  test(
    "types and check use the listing too; call, which runs a tool, starts the server",
    async () => {
      const types = await run(["types", "--target", "listed", "--agent", "on-device", "-o", "-"]);
      expect(types.code).toBe(0);
      expect(types.stdout).toContain("    listed_echo: { args: { text: string }; result: string };\n");
      const check = await run(["check", "--target", "listed", "--agent", "on-device"]);
      expect(check.code).toBe(0);
      expect(check.stdout).toMatch(/^ {2}listed · android-ondevice-accessibility · on-device: \d+ tools, \d+ skipped$/m);
      expect(check.stdout).toContain(
        '! warning [meta] tools/listed.ts: tool listed_badMeta: _meta["trailblaze/requiresHost"] should be a boolean',
      );
      expect(evaluations()).toEqual({ listed: 1 });
      const call = await run(["call", "listed_echo", "--args", '{"text":"hi"}', "--target", "listed", "--agent", "on-device"]);
      expect({ code: call.code, stdout: call.stdout }).toEqual({ code: 0, stdout: "✓ listed_echo: echo: hi\n" });
      expect(evaluations()).toEqual({ listed: 2 });
    },
    PROCESSES_TIMEOUT_MS,
  );

  test(
    "a damaged entry is ignored and rewritten: the same output, the bundle evaluated once more",
    async () => {
      const stored = readFileSync(listingFile(), "utf8");
      // Edited by hand (no longer matches its digest), then cut short.
      writeFileSync(listingFile(), stored.replace("Echoes its text", "Echoes nothing"));
      expect(await listTools()).toEqual(first);
      expect(evaluations()).toEqual({ listed: 3 });
      expect(readFileSync(listingFile(), "utf8")).toBe(stored);
      writeFileSync(listingFile(), stored.slice(0, 100));
      expect(await listTools()).toEqual(first);
      expect(evaluations()).toEqual({ listed: 4 });
      expect(readFileSync(listingFile(), "utf8")).toBe(stored);
      expect(await listTools()).toEqual(first);
      expect(evaluations()).toEqual({ listed: 4 });
    },
    PROCESSES_TIMEOUT_MS,
  );

  test(
    "another engine has its own entry",
    async () => {
      const ng = await listTools("listed", { TRAILBLAZE_QUICKJS: "quickjs-ng" });
      expect(ng).toEqual(first);
      expect(evaluations()).toEqual({ listed: 5 });
      expect(await listTools("listed", { TRAILBLAZE_QUICKJS: "quickjs-ng" })).toEqual(first);
      expect(await listTools()).toEqual(first);
      expect(evaluations()).toEqual({ listed: 5 });
    },
    PROCESSES_TIMEOUT_MS,
  );

  test(
    "editing the tool's source invalidates its listing",
    async () => {
      const source = join(dir, "tools/listed.ts");
      writeFileSync(source, readFileSync(source, "utf8").replace('"Echoes its text"', '"Echoes its text back"'));
      const edited = await listTools();
      expect(edited.code).toBe(0);
      expect(serverTools(edited.stdout).find((tool) => tool.name === "listed_echo")?.description).toBe("Echoes its text back");
      expect(evaluations()).toEqual({ listed: 6 });
      expect(await listTools()).toEqual(edited);
      expect(evaluations()).toEqual({ listed: 6 });
    },
    PROCESSES_TIMEOUT_MS,
  );

  test(
    "a collision fails the same way from the cache: the registry still registers the listed tools",
    async () => {
      const collision = await listTools("collide");
      expect(collision.code).toBe(2);
      expect(collision.stderr).toContain(
        'error: Tool name collision: "listed_echo" is advertised by both tools/listed.ts and tools/twin.ts. Tool names are global and registered exactly as advertised; rename the tool in one of the sources.\n',
      );
      const counted = evaluations();
      expect(counted.twin).toBe(1);
      expect(await listTools("collide")).toEqual(collision);
      expect(evaluations()).toEqual(counted);
    },
    PROCESSES_TIMEOUT_MS,
  );

  test(
    "a bundle that throws is never cached: it fails the same way, evaluated each time",
    async () => {
      const broken = await listTools("broken");
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain(
        'error: QuickJS server "tools/throws.ts" threw while evaluating its bundle: Error: throws.ts refuses to start\n',
      );
      expect(broken.stderr).toContain("    at <anonymous> (tools/throws.ts:11:1)\n");
      expect(await listTools("broken")).toEqual(broken);
      expect(evaluations().throws).toBe(2);
      expect(listingsOf("throws")).toEqual([]);
    },
    PROCESSES_TIMEOUT_MS,
  );

  test(
    "a server that calls a session tool while starting is never cached: its listing may depend on the session",
    async () => {
      const description = async (memory: string) => {
        const listed = await run(["tools", "--target", "asks", "--agent", "on-device", "--json", "--memory", memory]);
        expect(listed.code).toBe(0);
        return serverTools(listed.stdout).map((tool) => tool.description);
      };
      expect(await description("greeting=hi")).toEqual(['Greets; the session\'s memory was {"greeting":"hi"}']);
      expect(await description("greeting=bye")).toEqual(['Greets; the session\'s memory was {"greeting":"bye"}']);
      expect(evaluations().asks).toBe(2);
      expect(listingsOf("asks")).toEqual([]);
    },
    PROCESSES_TIMEOUT_MS,
  );
});
