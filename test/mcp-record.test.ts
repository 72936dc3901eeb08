// Recording trails with your own agent: `trailblaze mcp --record FILE` and `--trail FILE`, driven
// by the SDK Client as the agent (a real `trailblaze mcp` subprocess on the demo app map), then
// replayed with `trailblaze run FILE`; the record-trail prompt; and the MCP Inspector's CLI.

import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, cliProcess, REPO, tempDir, TEST_PATH } from "./support/cli.ts";
import { descendants, installedProject, MAIN, serve, testEnv, waitGone, type Served } from "./support/mcp-serve.ts";

const DEMO = join(REPO, "fixtures/demo");
const FILL_FIXTURE = join(REPO, "fixtures/record/fill-two-steps.trail.yaml");
const MAP = ["--map", "maps/myapp", "--start", "myapp/android/login"];
const logs = tempDir("mcp-record-logs");
const work = tempDir("mcp-record");
const opened: Served[] = [];

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

async function serveDemo(...flags: string[]): Promise<Served> {
  const served = await serve(["--logs", logs, ...MAP, ...flags], { cwd: DEMO });
  opened.push(served);
  return served;
}

interface Answer {
  text: string;
  isError: boolean;
  data: Record<string, unknown> | undefined;
}

function agent(served: Served) {
  return async (name: string, args: Record<string, unknown> = {}): Promise<Answer> => {
    const result = await served.client.callTool({ name, arguments: args });
    const content = result.content as { type: string; text?: string }[];
    return {
      text: content.map((c) => c.text ?? "").join(""),
      isError: result.isError === true,
      data: result.structuredContent as Record<string, unknown> | undefined,
    };
  };
}

const logIn = {
  tool: "tapOnElementBySelector",
  args: { reason: "", nodeSelector: { androidAccessibility: { resourceIdRegex: "com\\.example\\.myapp:id/login" } } },
};
const openSettings = { tool: "tapOnElementWithText", args: { text: "Settings" } };

/** `trailblaze run FILE` as users run it (a real CLI process), with the session flags of the recording. */
async function replay(file: string, ...flags: string[]) {
  return cliProcess(["run", file, "--logs", logs, ...MAP, ...flags], { cwd: DEMO });
}

describe("--record FILE", () => {
  test("an agent's walk becomes a trail: steps from beginStep, failed and discarded calls left out, secrets as placeholders; run replays it", async () => {
    const file = join(work, "walk.trail.yaml");
    const served = await serveDemo("--record", file, "--secret", "PASSWORD=hunter2");
    const call = agent(served);

    const { tools } = await served.client.listTools();
    expect(tools.slice(0, 3).map((t) => [t.name, t._meta])).toEqual([
      ["trailblaze_beginStep", { "trailblaze/source": "trailblaze mcp" }],
      ["trailblaze_completeStep", { "trailblaze/source": "trailblaze mcp" }],
      ["trailblaze_discardStep", { "trailblaze/source": "trailblaze mcp" }],
    ]);
    expect(tools.map((t) => t.name)).not.toContain("trailblaze_nextStep");

    // A call before any step starts one named after its tool.
    expect((await call("assertWaypoint", { waypoint: "myapp/android/login" })).isError).toBe(false);
    const begun = await call("trailblaze_beginStep", { step: "Log in with the test password" });
    expect(begun.data).toMatchObject({ index: 2, step: "Log in with the test password", waypoint: "myapp/android/login" });
    expect(begun.data!.screen).toContain('#5 Button "Log in" id=com.example.myapp:id/login');
    // The secret's value typed out, and its placeholder: both recorded as {{PASSWORD}}.
    expect((await call("inputText", { text: "hunter2" })).text).toBe('simulated device: inputText "***"');
    expect((await call("inputText", { text: "{{PASSWORD}}" })).isError).toBe(false);
    expect(await call("inputText", { text: "{{NOPE}}" })).toMatchObject({ isError: true });
    // A failed call is not recorded.
    const missed = await call("tapOnElementWithText", { text: "Sign in" });
    expect(missed.isError).toBe(true);
    expect((await call(logIn.tool, logIn.args)).isError).toBe(false);
    expect((await call("trailblaze_completeStep")).data).toMatchObject({ index: 2, recorded: 3, waypoint: "myapp/android/home" });

    await call("trailblaze_beginStep", { step: "Open Settings" });
    expect((await call("pressBack")).isError).toBe(false);
    expect((await call("trailblaze_discardStep")).data).toMatchObject({ index: 3, discarded: 1 });
    expect((await call(openSettings.tool, openSettings.args)).isError).toBe(false);
    expect((await call("trailblaze_beginStep", { step: "Settings shows", verify: true })).data).toMatchObject({
      index: 4,
      verify: true,
      waypoint: "myapp/android/settings",
    });
    expect((await call("assertWaypoint", { waypoint: "myapp/android/settings" })).isError).toBe(false);
    expect(await call("trailblaze_beginStep", { step: "  " })).toEqual({
      text: 'trailblaze_beginStep: expected {"step": "<what the step does>"}, a non-empty text, got {"step":"  "}',
      isError: true,
      data: undefined,
    });
    await served.close();

    expect(readFileSync(file, "utf8")).toBe(
      [
        "# Recorded with trailblaze mcp --record: one step per trailblaze_beginStep, its successful tool calls under recording: tools:.",
        `# Replay: npx trailblaze run ${file} --map maps/myapp --start myapp/android/login --secret PASSWORD`,
        "config:",
        "  id: walk",
        "  target: myapp",
        "trail:",
        "  - step: assertWaypoint",
        "    recording:",
        "      tools:",
        "        - assertWaypoint:",
        "            waypoint: myapp/android/login",
        "  - step: Log in with the test password",
        "    recording:",
        "      tools:",
        "        - inputText:",
        '            text: "{{PASSWORD}}"',
        "        - inputText:",
        '            text: "{{PASSWORD}}"',
        "        - tapOnElementBySelector:",
        '            reason: ""',
        "            nodeSelector:",
        "              androidAccessibility:",
        "                resourceIdRegex: com\\.example\\.myapp:id/login",
        "  - step: Open Settings",
        "    recording:",
        "      tools:",
        "        - tapOnElementWithText:",
        "            text: Settings",
        "  - verify: Settings shows",
        "    recording:",
        "      tools:",
        "        - assertWaypoint:",
        "            waypoint: myapp/android/settings",
        "",
      ].join("\n"),
    );
    expect(readdirSync(work).filter((name) => name.endsWith(".tmp"))).toEqual([]);

    const run = await replay(file, "--secret", "PASSWORD=hunter2");
    expect(run.stdout).toContain("1 passed, 0 failed (1 trail)");
    expect(run.code).toBe(0);
  });

  test("a tap by ref is recorded as the element's selector (the ref is this screen's), and replays", async () => {
    const file = join(work, "by-ref.trail.yaml");
    const served = await serveDemo("--record", file);
    const call = agent(served);
    await call("trailblaze_beginStep", { step: "Log in" });
    expect((await call("tap", { ref: "n5" })).isError).toBe(false);
    expect((await call("trailblaze_completeStep")).data).toMatchObject({ recorded: 1, waypoint: "myapp/android/home" });
    await served.close();
    const text = readFileSync(file, "utf8");
    expect(text).toContain("        - tapOnElementBySelector:\n            nodeSelector:\n              androidAccessibility:\n");
    expect(text).not.toContain("ref:");
    const run = await replay(file);
    expect(run.stdout).toContain("1 passed, 0 failed (1 trail)");
    expect(run.code).toBe(0);
  });

  test("an existing FILE, --record with --trail, --arg without --trail: usage errors before any session starts", async () => {
    const existing = join(work, "existing.trail.yaml");
    writeFileSync(existing, "config: {}\n");
    const refused = await cli(["mcp", "--record", existing], { cwd: DEMO });
    expect({ code: refused.code, stderr: refused.stderr }).toEqual({
      code: 2,
      stderr:
        `error: mcp: --record ${existing}: the file exists, and --record writes a new trail; pick another name or remove it ` +
        `(--trail ${existing} fills in the steps of an existing trail that have no recording)\n`,
    });
    expect((await cli(["mcp", "--record", "a.trail.yaml", "--trail", existing], { cwd: DEMO })).stderr).toBe(
      "error: mcp: --record and --trail cannot be used together: --record writes a new trail, --trail fills in the steps of an existing one\n",
    );
    expect((await cli(["mcp", "--record", join(work, "b.trail.yaml"), "--arg", "x=1"], { cwd: DEMO })).stderr).toBe(
      "error: mcp: --arg applies to --trail FILE only (the trail's config.args)\n",
    );
    const missing = await cli(["mcp", "--trail", "nope.trail.yaml"], { cwd: DEMO });
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({
      code: 2,
      stderr: "error: mcp: --trail nope.trail.yaml: cannot read it (ENOENT); --record nope.trail.yaml makes a new trail instead\n",
    });
    expect(existsSync(join(work, "a.trail.yaml")) || existsSync(join(work, "b.trail.yaml"))).toBe(false);
  });
});

describe("--trail FILE", () => {
  test("replays up to the first unrecorded step; the agent fills two steps; comments and layout are kept; run passes", async () => {
    const file = join(work, "fill.trail.yaml");
    copyFileSync(FILL_FIXTURE, file);
    const original = readFileSync(file, "utf8");
    const served = await serveDemo("--trail", file);
    const call = agent(served);
    expect((await served.client.listTools()).tools.slice(0, 3).map((t) => t.name)).toEqual([
      "trailblaze_nextStep",
      "trailblaze_completeStep",
      "trailblaze_discardStep",
    ]);

    // Nothing is recorded, or run, before nextStep opens a step.
    expect(await call(openSettings.tool, openSettings.args)).toEqual({
      text: `call trailblaze_nextStep first: it replays the recorded steps of ${file} and opens the first step without a recording, which the calls after it are recorded into`,
      isError: true,
      data: undefined,
    });
    const first = await call("trailblaze_nextStep");
    expect(first.data).toMatchObject({
      index: 1,
      step: "Log in with the prefilled test account",
      kind: "step",
      done: false,
      total: 4,
      waypoint: "myapp/android/login",
    });
    expect(first.data!.screen).toStartWith(
      "maps/myapp/waypoints/myapp_android_login.example.json: waypoint capture of myapp/android/login, 6 nodes",
    );
    // nextStep again answers the same open step.
    expect((await call("trailblaze_nextStep")).data).toMatchObject({ index: 1, done: false });
    expect(await call("trailblaze_completeStep")).toMatchObject({
      isError: true,
      text:
        'trailblaze_completeStep: step 1 "Log in with the prefilled test account" has no successful call to record yet; make its calls first ' +
        "(a step that checks something records the assertion, e.g. assertVisibleWithText or assertWaypoint)",
    });
    expect((await call("tapOnElementWithText", { text: "Sign in" })).isError).toBe(true);
    expect((await call(logIn.tool, logIn.args)).isError).toBe(false);
    const second = await call("trailblaze_completeStep");
    expect(second.data).toMatchObject({
      recorded: { index: 1, step: "Log in with the prefilled test account", calls: 1 },
      index: 2,
      step: "Open Settings from the bottom navigation",
      done: false,
      waypoint: "myapp/android/home",
    });
    expect((await call(openSettings.tool, openSettings.args)).isError).toBe(false);
    // Replay goes on through the recorded steps 3 and 4: the device ends on the profile.
    const done = await call("trailblaze_completeStep");
    expect(done.data).toMatchObject({
      recorded: { index: 2, calls: 1 },
      index: null,
      step: null,
      done: true,
      total: 4,
      waypoint: "myapp/android/profile",
    });
    expect((await call("pressBack")).text).toBe(
      `every step of ${file} has a recording now (trailblaze_nextStep says done: true); replay it with trailblaze run ${file}`,
    );
    await served.close();

    const filled = readFileSync(file, "utf8");
    // Every line of the original is still there, in order; the two recordings are spliced in below their steps.
    expect(filled).toBe(
      original
        .replace(
          "  - step: Log in with the prefilled test account   # needs an agent\n",
          "  - step: Log in with the prefilled test account   # needs an agent\n" +
            "    recording:\n      tools:\n        - tapOnElementBySelector:\n" +
            '            reason: ""\n            nodeSelector:\n              androidAccessibility:\n' +
            "                resourceIdRegex: com\\.example\\.myapp:id/login\n",
        )
        .replace(
          "  - step: Open Settings from the bottom navigation\n",
          "  - step: Open Settings from the bottom navigation\n    recording:\n      tools:\n        - tapOnElementWithText:\n            text: Settings\n",
        ),
    );
    const run = await replay(file);
    expect(run.stdout).toContain("1 passed, 0 failed (1 trail)");
    expect(run.code).toBe(0);
  });

  test("the agent's {{args.NAME}} and {{KEY}} placeholders are replaced for the call and written as the agent wrote them", async () => {
    const file = join(work, "args.trail.yaml");
    writeFileSync(
      file,
      "config:\n  target: myapp\n  args:\n    greeting: { default: Hello }\ntrail:\n  - verify: The login screen greets\n",
    );
    const served = await serveDemo("--trail", file, "--arg", "greeting=Welcome back");
    const call = agent(served);
    await call("trailblaze_nextStep");
    expect(await call("assertVisibleWithText", { text: "{{args.greting}}" })).toEqual({
      text: 'assertVisibleWithText: unknown key "args.greting" in {{args.greting}}; known keys, closest first: args.greeting',
      isError: true,
      data: undefined,
    });
    expect((await call("assertVisibleWithText", { text: "{{args.greeting}}" })).isError).toBe(false);
    expect((await call("trailblaze_completeStep")).data).toMatchObject({ recorded: { index: 1, calls: 1 }, done: true });
    await served.close();
    expect(readFileSync(file, "utf8")).toEndWith(
      '  - verify: The login screen greets\n    recording:\n      tools:\n        - assertVisibleWithText:\n            text: "{{args.greeting}}"\n',
    );
    const run = await replay(file, "--arg", "greeting=Welcome back");
    expect(run.stdout).toContain("1 passed, 0 failed (1 trail)");
  });

  test("a recorded step that fails on replay stops there, naming the step, the call's place and what to do", async () => {
    const file = join(work, "broken.trail.yaml");
    writeFileSync(
      file,
      "config:\n  target: myapp\ntrail:\n  - step: Open Settings too early\n    recording:\n      tools:\n        - tapOnElementWithText: { text: Settings }\n  - step: Then something\n",
    );
    const served = await serveDemo("--trail", file);
    const call = agent(served);
    const broken = await call("trailblaze_nextStep");
    expect(broken.isError).toBe(true);
    expect(broken.text).toStartWith(`step 1 "Open Settings too early" failed on replay at ${file}:7:11: tapOnElementWithText: `);
    expect(broken.text).toEndWith(`; fix or remove that recording in ${file}, then start trailblaze mcp --trail again`);
    expect((await call("pressBack")).text).toBe(broken.text);
    await served.close();
  });

  test("a recorded tool no server registers: exit 2 before serving, at the call's file:line:col", async () => {
    const file = join(work, "unknown-tool.trail.yaml");
    writeFileSync(file, "config:\n  target: myapp\ntrail:\n  - step: Tap\n    recording:\n      tools:\n        - tapOnTheMoon: {}\n");
    const run = await cli(["mcp", "--logs", logs, "--trail", file], { cwd: DEMO });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`error: ${file}:7:11: tapOnTheMoon is not registered in this session; closest registered: `);
  });
});

describe("the record-trail prompt", () => {
  test("prompts/list offers it; prompts/get explains the mode the server runs in", async () => {
    const file = join(work, "prompt.trail.yaml");
    copyFileSync(FILL_FIXTURE, file);
    const served = await serveDemo("--trail", file);
    const { prompts } = await served.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(["record-trail"]);
    const got = await served.client.getPrompt({ name: "record-trail" });
    const text = (got.messages[0]!.content as { text: string }).text;
    expect(text).toStartWith(`Fill in the steps of ${file} that have no recording yet.\n\n1. Call trailblaze_nextStep.`);
    expect(text).toContain("a failed call is not, so retry");
    await expect(served.client.getPrompt({ name: "record" })).rejects.toThrow(
      'Unknown prompt "record"; this server has one prompt: record-trail',
    );
    await served.close();

    const plain = await serveDemo();
    expect((await plain.client.listTools()).tools.map((t) => t.name).filter((name) => name.startsWith("trailblaze_"))).toEqual([]);
    const unrecorded = await plain.client.getPrompt({ name: "record-trail", arguments: { goal: "open Settings" } });
    expect((unrecorded.messages[0]!.content as { text: string }).text).toStartWith(
      "This trailblaze mcp server was started without a trail file, so nothing is recorded. To record, start it with --record FILE",
    );
    await plain.close();
  });
});

describe("a tool named like a control tool", () => {
  test("a recording session refuses to start beside it (exit 2, both sources named); naming warns about the prefix", async () => {
    const ws = tempDir("mcp-record-collision");
    mkdirSync(join(ws, "trailblaze-config/targets"), { recursive: true });
    mkdirSync(join(ws, "tools"));
    writeFileSync(
      join(ws, "trailblaze-config/targets/clash.yaml"),
      "id: clash\nmcp_servers:\n  - script: ./tools/clash.ts\nplatforms:\n  android: {}\n",
    );
    writeFileSync(
      join(ws, "tools/clash.ts"),
      [
        'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
        'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";',
        'const server = new McpServer({ name: "clash", version: "1.0.0" });',
        'server.registerTool("trailblaze_nextStep", { description: "mine" }, async () => ({ content: [{ type: "text", text: "mine" }] }));',
        "await server.connect(new StdioServerTransport());",
        "",
      ].join("\n"),
    );
    writeFileSync(join(ws, "t.trail.yaml"), "trail:\n  - step: Anything\n");
    const run = await cli(["mcp", "--logs", logs, "--trail", "t.trail.yaml"], { cwd: ws });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'warning: tools/clash.ts: tool name "trailblaze_nextStep" starts with "trailblaze_", the prefix of trailblaze mcp\'s control tools',
    );
    // The CLI prints "trailblaze" commands in the words it was started with (here npx).
    expect(run.stderr).toEndWith(
      'error: Tool name collision: "trailblaze_nextStep" is advertised by both npx trailblaze mcp and tools/clash.ts. ' +
        "Tool names are global and registered exactly as advertised; rename the tool in one of the sources.\n",
    );
    expect(run.stderr).not.toContain("serving");
  });
});

/** Live processes whose command line holds `text` (the inspector's server child, found by its session id). */
function processesWith(text: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return readFileSync(`/proc/${name}/cmdline`, "utf8").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("the MCP Inspector CLI", () => {
  /** `npx @modelcontextprotocol/inspector --cli <trailblaze mcp …> <inspector args>` in the demo workspace; no trailblaze process outlives it. */
  async function inspect(mcpFlags: string[], inspectorArgs: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const sessionId = `inspector-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const child = Bun.spawn(
      [
        "npx",
        "@modelcontextprotocol/inspector",
        "--cli",
        process.execPath,
        MAIN,
        "mcp",
        "--logs",
        logs,
        "--session-id",
        sessionId,
        ...MAP,
        ...mcpFlags,
        ...inspectorArgs,
      ],
      // Offline: the inspector is a devDependency; npx must never fetch it.
      { cwd: DEMO, env: testEnv({ PATH: TEST_PATH, npm_config_offline: "true" }), stdout: "pipe", stderr: "pipe" },
    );
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect(await waitGone(processesWith(sessionId))).toEqual([]);
    return { code, stdout, stderr };
  }

  test("lists the record-trail prompt and calls trailblaze_nextStep", async () => {
    const file = join(work, "inspector.trail.yaml");
    copyFileSync(FILL_FIXTURE, file);
    const listed = await inspect(["--trail", file], ["--method", "prompts/list"]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).prompts.map((p: { name: string }) => p.name)).toEqual(["record-trail"]);

    const next = await inspect(["--trail", file], ["--method", "tools/call", "--tool-name", "trailblaze_nextStep"]);
    expect(next.code).toBe(0);
    expect(JSON.parse(next.stdout).structuredContent).toMatchObject({
      index: 1,
      step: "Log in with the prefilled test account",
      done: false,
      waypoint: "myapp/android/login",
    });
  });
});

describe("the documented .mcp.json", () => {
  /** The `mcpServers` entry of a ```json block after `heading` in `page`. */
  function snippet(page: string, heading: string): { command: string; args: string[] } {
    const text = readFileSync(join(REPO, page), "utf8");
    const block = /```json\n([\s\S]*?)```/.exec(text.slice(text.indexOf(heading)))![1]!;
    return Object.values(JSON.parse(block).mcpServers as Record<string, { command: string; args: string[] }>)[0]!;
  }

  test("README's and docs/cli.md's entry starts in the project root as Claude Code starts it, and opens the trail's first unrecorded step", async () => {
    const readme = snippet("README.md", "## Recording with your agent");
    expect(snippet("docs/cli.md", "### Recording trails with your agent")).toEqual(readme);
    const project = installedProject();
    copyFileSync(FILL_FIXTURE, join(project, "trails/profile.trail.yaml"));
    const served = await serve([...readme.args, "--logs", logs], {
      cwd: project,
      command: readme.command,
      env: { HOME: process.env.HOME ?? "/", PATH: "/usr/local/bin:/usr/bin:/bin" },
    });
    opened.push(served);
    expect((await served.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["record-trail"]);
    expect((await agent(served)("trailblaze_nextStep")).data).toMatchObject({
      index: 1,
      file: "trails/profile.trail.yaml",
      waypoint: "myapp/android/login",
    });
    const processes = [served.pid, ...descendants(served.pid)];
    await served.close();
    expect(await waitGone(processes)).toEqual([]);
  });
});
