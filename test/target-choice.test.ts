// Which target a session gets when no trail chooses it, one rule for tools, call, types and mcp
// (--target, $TRAILBLAZE_TARGET, the only target, defaults.target, then the built-in default with
// a note naming the workspace's own targets); what an unknown tool another target has says; and
// calls.jsonl written by call and mcp as run writes it, secrets masked.

import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, cliUnderTestEnv, REPO, tempDir } from "./support/cli.ts";
import { serve, testEnv, type Served } from "./support/mcp-serve.ts";

const ROOT = join(REPO, "fixtures/upstream-root"); // targets clock and notes, no defaults.target
const LAYOUT = join(REPO, "fixtures/upstream-layout"); // targets shop and backoffice, defaults.target: shop
const logs = tempDir("target-choice-logs");
const NO_PIN = { TRAILBLAZE_TARGET: undefined };
const ROOT_NOTE =
  "note: target default, the framework's tools only: no --target, $TRAILBLAZE_TARGET or defaults.target (trailblaze.yaml) " +
  "names one of this workspace's targets (clock, notes); add --target ID for a target's tools, e.g. --target clock\n";

async function sessionTarget(cwd: string, flags: string[], env: Record<string, string | undefined> = NO_PIN) {
  const run = await cli(["tools", "--json", "--logs", logs, ...flags], { cwd, env });
  return { ...run, target: run.code === 0 ? (JSON.parse(run.stdout) as { session: { target: string } }).session.target : undefined };
}

/** A workspace as a new user makes it: `init --target shop`, then a second target, wiki, with a server of its own. */
async function twoTargetWorkspace(): Promise<string> {
  const dir = tempDir("target-choice-workspace");
  expect((await cli(["init", "--target", "shop"], { cwd: dir })).code).toBe(0);
  const shop = (path: string) => readFileSync(join(dir, path), "utf8");
  writeFileSync(join(dir, "trailblaze-config/targets/wiki.yaml"), shop("trailblaze-config/targets/shop.yaml").replaceAll("shop", "wiki"));
  mkdirSync(join(dir, "tools/wiki"));
  writeFileSync(join(dir, "tools/wiki/greet.ts"), shop("tools/shop/greet.ts").replaceAll("shop", "wiki"));
  return dir;
}

describe("the target of a session for no trail", () => {
  test("with several targets and nothing naming one: the built-in default, and a note naming the targets and --target", async () => {
    const run = await sessionTarget(ROOT, []);
    expect(run).toMatchObject({ code: 0, target: "default", stderr: ROOT_NOTE });
    const types = await cli(["types", "-o", "-", "--logs", logs], { cwd: ROOT, env: NO_PIN });
    expect(types.code).toBe(0);
    expect(types.stdout).toContain("target default");
    expect(types.stderr).toBe(ROOT_NOTE);
  });

  test("$TRAILBLAZE_TARGET picks it, under --target; blank or clear is unset; an unknown one is an error saying where it came from", async () => {
    expect(await sessionTarget(ROOT, [], { TRAILBLAZE_TARGET: " notes " })).toMatchObject({ code: 0, target: "notes", stderr: "" });
    expect(await sessionTarget(ROOT, ["--target", "clock"], { TRAILBLAZE_TARGET: "notes" })).toMatchObject({ code: 0, target: "clock" });
    expect(await sessionTarget(ROOT, [], { TRAILBLAZE_TARGET: "clear" })).toMatchObject({ code: 0, target: "default", stderr: ROOT_NOTE });
    expect(await sessionTarget(ROOT, [], { TRAILBLAZE_TARGET: "" })).toMatchObject({ code: 0, target: "default" });
    const unknown = await sessionTarget(ROOT, [], { TRAILBLAZE_TARGET: "nope" });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `error: $TRAILBLAZE_TARGET: unknown target "nope" in ${join(ROOT, "trails/config")}: no target has that id or lists it as an app id; ` +
        "known targets: clock, notes; known app ids: com.example.clock, com.example.notes\n",
    );
  });

  test("the workspace's defaults.target comes after $TRAILBLAZE_TARGET", async () => {
    expect(await sessionTarget(LAYOUT, [])).toMatchObject({ code: 0, target: "shop" });
    expect(await sessionTarget(LAYOUT, [], { TRAILBLAZE_TARGET: "backoffice" })).toMatchObject({ code: 0, target: "backoffice" });
  });

  test("a trail run keeps its own choice: a framework-only trail that names no target runs on default, or on $TRAILBLAZE_TARGET", async () => {
    const trail = "trails/clock/framework-only.trail.yaml";
    const run = async (env: Record<string, string | undefined>) => {
      const result = await cli(["run", trail, "--reporter", "json", "--logs", logs], { cwd: ROOT, env });
      return (JSON.parse(result.stdout) as { trails: { session: { target: string } }[] }).trails[0]!.session.target;
    };
    expect(await run(NO_PIN)).toBe("default");
    expect(await run({ TRAILBLAZE_TARGET: "clock" })).toBe("clock");
  });
});

describe("call of a tool another target has", () => {
  test("a per-file tool another target lists: says which, and the flag to add", async () => {
    const run = await cli(["call", "notes_addNote", "--logs", logs], { cwd: ROOT, env: NO_PIN });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `${ROOT_NOTE}error: call: Unknown tool "notes_addNote" in target default: notes_addNote is a tool of target notes: add --target notes\n`,
    );
  });

  test("a server's tool, known by its target's prefix; with that target, the call runs and calls.jsonl has its line", async () => {
    const dir = await twoTargetWorkspace();
    const unknown = await cli(["call", "shop_greet", "--args", '{"text":"hi"}'], { cwd: dir, env: NO_PIN });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      "no --target or $TRAILBLAZE_TARGET names one of this workspace's targets (shop, wiki); add --target ID for a target's tools, e.g. --target shop\n",
    );
    expect(unknown.stderr).toEndWith(
      'error: call: Unknown tool "shop_greet" in target default: shop_greet is a tool of target shop, by its name (shop_…): add --target shop\n',
    );

    // A typo of the session's own tools is not another target's: the dispatcher's close names instead.
    const typo = await cli(["call", "shop_greeet", "--target", "shop", "--logs", logs], { cwd: dir, env: NO_PIN });
    expect(typo.stderr).toEndWith('error: Unknown tool "shop_greeet": no registered tool has that name; did you mean "shop_greet"?\n');

    const called = await cli(["call", "shop_greet", "--args", '{"text":"hi"}', "--session-id", "call-1", "--logs", logs], {
      cwd: dir,
      env: { TRAILBLAZE_TARGET: "shop" },
    });
    expect(called).toMatchObject({ code: 0, stdout: '✓ shop_greet: got "hi" (ANDROID)\n{\n  "text": "hi",\n  "platform": "ANDROID"\n}\n' });
    const lines = readFileSync(join(logs, "call-1/calls.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([
      {
        at: expect.any(String),
        tool: "shop_greet",
        invocationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        args: { text: "hi" },
        status: "success",
        variant: "Success",
        message: 'got "hi" (ANDROID)',
        durationMs: expect.any(Number),
        structuredContent: { text: "hi", platform: "ANDROID" },
      },
    ]);
  });
});

describe("trailblaze mcp", () => {
  const opened: Served[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((served) => served.close()));
  });
  const start = async (dir: string, args: string[], env: Record<string, string> = {}) => {
    const base = testEnv({ ...(await cliUnderTestEnv()), ...env });
    delete base.TRAILBLAZE_TARGET;
    const served = await serve(["--logs", logs, ...args], { cwd: dir, env: { ...base, ...env } });
    opened.push(served);
    return served;
  };
  const text = (result: Record<string, unknown>) => (result.content as { text: string }[]).map((c) => c.text).join("");

  test("with several targets and none named: says so; a tool of another target is refused naming it", async () => {
    const dir = await twoTargetWorkspace();
    const served = await start(dir, []);
    const names = (await served.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain("shop_greet");
    const refused = await served.client.callTool({ name: "shop_greet", arguments: { text: "hi" } });
    expect(refused).toMatchObject({ isError: true, _meta: { trailblaze: { variant: "ExceptionThrown" } } });
    expect(text(refused)).toBe(
      'Unknown tool "shop_greet" in target default: shop_greet is a tool of target shop, by its name (shop_…): start trailblaze mcp with --target shop',
    );
    // Any other unknown name is the server's own answer.
    expect(text(await served.client.callTool({ name: "nobody_knows", arguments: {} }))).toStartWith(
      'Unknown tool "nobody_knows": no registered tool has that name',
    );
    expect(served.stderr()).toContain(
      "note: target default, the framework's tools only: no --target or $TRAILBLAZE_TARGET names one of this workspace's targets (shop, wiki)",
    );
    expect(served.stderr()).toContain("trailblaze mcp: serving");
  });

  test("writes calls.jsonl, secrets masked, and ends it when the session closes", async () => {
    const dir = await twoTargetWorkspace();
    const served = await start(dir, ["--target", "shop", "--secret", "token=s3cr3t-value", "--session-id", "mcp-1"]);
    expect(text(await served.client.callTool({ name: "shop_greet", arguments: { text: "s3cr3t-value" } }))).toBe('got "***" (ANDROID)');
    await served.client.callTool({ name: "rememberText", arguments: {} });
    await served.close();
    const file = join(logs, "mcp-1/calls.jsonl");
    for (let i = 0; i < 100 && !readdirSync(join(logs, "mcp-1")).includes("calls.jsonl"); i++) await Bun.sleep(50);
    let content = readFileSync(file, "utf8");
    for (let i = 0; i < 100 && content.trim().split("\n").length < 2; i++) await Bun.sleep(50), (content = readFileSync(file, "utf8"));
    expect(content).not.toContain("s3cr3t-value");
    const lines = content
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.tool)).toEqual(["shop_greet", "rememberText"]);
    expect(lines[0]).toMatchObject({ args: { text: "***" }, status: "success", structuredContent: { text: "***", platform: "ANDROID" } });
  });
});
