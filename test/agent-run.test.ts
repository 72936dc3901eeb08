// The built-in agent on a local server that speaks the providers' wire formats (no network):
// steps in words pass on the calendar map and save their recordings, which then replay with no
// model; a drifted recording fails without --self-heal and heals with it; the cap stops a model
// that never finishes; a refused key, a rate limit, an unknown tool and bad arguments each end the
// way the docs say; the key and the secrets never reach the model, a report, a log or the trail.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, cliProcess, REPO, tempDir } from "./support/cli.ts";
import { done, call, startLlmServer, type LlmServer, type TurnSource } from "./support/llm-server.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";
import { AGENT_FIXTURE, AGENT_KEY, agentEnv, agentWorkspace, CALENDAR_MAP } from "./support/agent-workspace.ts";

let server: LlmServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

// The model acts by the refs the outline shows: [n2] is the day view's drawer button.
const tapDrawer = call("tap", { ref: "n2", reasoning: "the drawer button" });

interface Report {
  trails: {
    status: string;
    error?: string;
    healed?: number;
    savedRecording?: { file: string; slot: string; steps: number[] };
    steps: {
      status: string;
      tools: { name: string; args: Record<string, unknown> }[];
      agent?: {
        model: string;
        why: string;
        turns: { shown: string; called?: { tool: string }; ok?: boolean }[];
        tokens: { input: number };
        costUsd?: number;
      };
    }[];
  }[];
  summary: { healed?: number };
}

async function runJson(dir: string, args: string[], extra: Record<string, string> = {}) {
  const result = await cli(["run", ...args, "--reporter", "json", "--no-logging"], { cwd: dir, env: agentEnv(extra) });
  return { ...result, report: JSON.parse(result.stdout) as Report };
}

const WORDS_TURNS: TurnSource[] = [
  (request) => {
    // The first request carries the objective and the screen the device is on, outlined.
    expect(request.text).toContain("## Objective\nOpen the navigation drawer");
    expect(request.text).toContain('[n2] ImageButton "Open the calendar drawer"');
    // Of the map's shortcuts, only those from the waypoint the device is at are offered.
    const offered = (request.body.tools as { name?: string; function?: { name: string } }[]).map((t) => t.function?.name ?? t.name);
    expect(offered).toContain("calendar_android_dayToDrawer");
    expect(offered).not.toContain("calendar_android_drawerToSettings");
    return tapDrawer;
  },
  done("the drawer is open"),
  (request) => {
    expect(request.text).toContain("waypoint calendar/android/drawer_open");
    expect(request.text).toContain('[n7] TextView "Settings"');
    return call("tap", { ref: "n7" });
  },
  call("tap", { ref: "n5" }),
  call("tap", { ref: "n11" }),
  done("the theme picker is open"),
  (request) => {
    // A verify step is offered the verification tools alone.
    const offered = (request.body.tools as { name?: string; function?: { name: string } }[]).map((t) => t.function?.name ?? t.name);
    expect(offered).toEqual(["assertVisible", "assertNotVisibleWithText", "assertWaypoint", "objectiveStatus"]);
    return call("assertVisible", { ref: "n6" });
  },
  done("Dark is offered"),
];

describe("steps in words on the calendar map", () => {
  test("pass through the agent, save their recordings under the device's slot, and replay with --llm none", async () => {
    server = startLlmServer(WORDS_TURNS);
    const dir = agentWorkspace("words", server);
    const trail = "trails/calendar/theme-in-words.trail.yaml";
    const first = await cliProcess(["run", trail, ...CALENDAR_MAP, "--no-logging"], { cwd: dir, env: agentEnv() });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("agent gateway/test-model (no recording)");
    expect(first.stdout).toContain("saved the agent's recording of steps 1, 2, 3");
    expect(server.requests).toHaveLength(8);
    // The gateway's headers and key go with every request.
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${AGENT_KEY}`);
    expect(server.requests[0]!.headers["x-team-id"]).toBe("ui-testing");

    const saved = readFileSync(join(dir, trail), "utf8");
    expect(saved).toContain("# The check at the end.");
    // What the model did by ref is saved as the elements' selectors, which replay when ids move.
    expect(saved).toContain(
      "  - step: Open the navigation drawer\n    recording:\n      android:\n        - tapOnElementBySelector:\n            nodeSelector:\n              androidAccessibility:\n                contentDescriptionRegex: Open the calendar drawer\n            reason: the drawer button",
    );
    expect(saved).toContain("androidAccessibility:\n                textRegex: Theme");
    expect(saved).toContain(
      "- assertVisibleBySelector:\n            nodeSelector:\n              androidAccessibility:\n                textRegex: Dark",
    );
    expect(saved).not.toContain("ref:");
    expect(saved).not.toContain("objectiveStatus");

    const again = await runJson(dir, [trail, ...CALENDAR_MAP, "--llm", "none"]);
    expect(again.code).toBe(0);
    expect(again.report.trails[0]!.status).toBe("passed");
    expect(again.report.trails[0]!.steps.every((s) => s.agent === undefined)).toBe(true);
    expect(server.requests).toHaveLength(8);
  });

  test("a trail whose recording cannot be saved (it links out of the workspace) is refused before the first model call; --no-save-recording runs it", async () => {
    server = startLlmServer(WORDS_TURNS);
    const dir = agentWorkspace("link-out", server);
    const trail = "trails/calendar/theme-in-words.trail.yaml";
    const outside = realpathSync(tempDir("agent-link-out"));
    const real = join(outside, "theme-in-words.trail.yaml");
    renameSync(join(dir, trail), real);
    symlinkSync(real, join(dir, trail));
    const before = readFileSync(real, "utf8");

    const refused = await runJson(dir, [trail, ...CALENDAR_MAP]);
    expect(refused.code).toBe(2);
    expect(refused.report.trails[0]).toMatchObject({
      status: "error",
      error:
        `run: the agent's recording cannot be saved in ${trail}: it leads to ${real} through a symbolic link, outside the workspace root ${realpathSync(dir)}, ` +
        "and the trail is not written through it. Remove the link, or pass --no-save-recording to run it without saving",
    });
    expect(server.requests).toHaveLength(0);

    const ran = await runJson(dir, [trail, ...CALENDAR_MAP, "--no-save-recording"]);
    expect(ran.code).toBe(0);
    expect(server.requests).toHaveLength(8);
    expect(readFileSync(real, "utf8")).toBe(before);
  });

  test("the report shows each turn: the screen the model was shown, its call, tokens and cost", async () => {
    server = startLlmServer(WORDS_TURNS);
    const dir = agentWorkspace("report", server);
    const { code, report } = await runJson(dir, ["trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, "--no-save-recording"]);
    expect(code).toBe(0);
    const agent = report.trails[0]!.steps[0]!.agent!;
    expect(agent).toMatchObject({ model: "gateway/test-model", why: "no-recording", tokens: { input: 200 } });
    expect(agent.turns[0]!.shown).toContain('ImageButton "Open the calendar drawer"');
    expect(agent.turns[0]!.called?.tool).toBe("tap");
    // 200 input tokens at $2 and 20 output tokens at $8 a million.
    expect(agent.costUsd).toBeCloseTo((200 * 2 + 20 * 8) / 1e6, 10);
    expect(report.trails[0]!.savedRecording).toBeUndefined();
    expect(readFileSync(join(dir, "trails/calendar/theme-in-words.trail.yaml"), "utf8")).not.toContain("recording:");
  });

  test("streamed answers from an Anthropic messages endpoint run the same way", async () => {
    server = startLlmServer(WORDS_TURNS);
    const dir = agentWorkspace("anthropic", server, "anthropic");
    const { code, report, stderr } = await runJson(dir, ["trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP], {
      TRAILBLAZE_LLM_STREAM: "1",
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(report.trails[0]!.status).toBe("passed");
    expect(server.requests.every((r) => r.wire === "anthropic" && r.body.stream === true && r.headers["x-api-key"] === AGENT_KEY)).toBe(
      true,
    );
  });

  test("without a model a step in words fails, and says how to give it one", async () => {
    server = startLlmServer([]);
    const dir = agentWorkspace("no-model", server);
    const { code, report } = await runJson(dir, ["trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, "--llm", "none"]);
    expect(code).toBe(1);
    expect(report.trails[0]!.error).toContain("this step needs an agent");
    expect(report.trails[0]!.error).toContain("--llm");
    expect(server.requests).toHaveLength(0);
  });
});

describe("self-heal", () => {
  const healTurns: TurnSource[] = [
    (request) => {
      // The model is told the objective and sees the screen where the recording failed.
      expect(request.text).toContain("## Objective\nOpen the navigation drawer");
      return tapDrawer;
    },
    done("the drawer is open"),
  ];

  test("a drifted recording fails without --self-heal and heals with it: reported healed, its recording rewritten", async () => {
    server = startLlmServer(healTurns);
    const dir = agentWorkspace("heal", server);
    const trail = "trails/calendar/drifted.trail.yaml";
    const plain = await runJson(dir, [trail, ...CALENDAR_MAP]);
    expect(plain.code).toBe(1);
    expect(plain.report.trails[0]!.error).toContain("Show the navigation menu");
    expect(server.requests).toHaveLength(0);

    const healed = await runJson(dir, [trail, ...CALENDAR_MAP, "--self-heal"]);
    expect(healed.code).toBe(0);
    const t = healed.report.trails[0]!;
    expect(t).toMatchObject({ status: "passed", healed: 1, savedRecording: { slot: "android", steps: [1] } });
    expect(t.steps.map((s) => s.status)).toEqual(["healed", "passed"]);
    expect(t.steps[0]!.agent!.why).toBe("self-heal");
    expect(healed.report.summary.healed).toBe(1);
    const text = readFileSync(join(dir, trail), "utf8");
    expect(text).not.toContain("Show the navigation menu");
    expect(text).toContain("contentDescriptionRegex: Open the calendar drawer");
    expect(text).toContain("# Recorded against an older build");

    const replay = await runJson(dir, [trail, ...CALENDAR_MAP, "--llm", "none"]);
    expect(replay.code).toBe(0);
    expect(replay.report.trails[0]!.steps.map((s) => s.status)).toEqual(["passed", "passed"]);
  });

  test("JUnit and the list say healed, never a plain pass", async () => {
    server = startLlmServer(healTurns);
    const dir = agentWorkspace("heal-junit", server);
    const { code, stdout } = await cli(
      [
        "run",
        "trails/calendar/drifted.trail.yaml",
        ...CALENDAR_MAP,
        "--self-heal",
        "--reporter",
        "junit",
        "--no-logging",
        "--no-save-recording",
      ],
      { cwd: dir, env: agentEnv() },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('<property name="healed" value="1"/>');
    expect(stdout).toContain("HEALED 1 step");
    server.after = undefined;
  });
});

describe("the HTML report of an agent's step", () => {
  test("shows each turn, and escapes whatever a hostile model answers", async () => {
    server = startLlmServer([
      { text: "<script>alert('model')</script>" },
      call("tap", { ref: "<img src=x onerror=alert(1)>" }),
      tapDrawer,
      done("</li><script>alert(2)</script>"),
    ]);
    const dir = agentWorkspace("heal-html", server);
    const out = join(tempDir("agent-html"), "report");
    const { code, stdout } = await cli(
      [
        "run",
        "trails/calendar/drifted.trail.yaml",
        ...CALENDAR_MAP,
        "--self-heal",
        "--reporter",
        "html",
        "--output",
        out,
        "--no-logging",
        "--no-save-recording",
      ],
      { cwd: dir, env: agentEnv() },
    );
    expect(stdout).toContain("✚ healed Open the navigation drawer");
    expect(code).toBe(0);
    const page = readFileSync(join(out, "index.html"), "utf8");
    expect(page).toContain("agent <b>gateway/test-model</b> (self-heal: the recording failed) · 4 model calls");
    expect(page).toContain('<span class="status healed">1 healed</span>');
    expect(page).toContain("what the model was shown");
    expect(page).toContain("&lt;script&gt;alert('model')&lt;/script&gt;");
    expect(page).not.toContain("<script>alert");
    expect(page).not.toContain("<img src=x");
  });
});

describe("failures users can act on", () => {
  test("--max-llm-calls stops a model that never finishes", async () => {
    server = startLlmServer([]);
    server.after = call("wait", { seconds: 0 });
    const dir = agentWorkspace("cap", server);
    const { code, report } = await runJson(dir, ["trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, "--max-llm-calls", "5"]);
    expect(code).toBe(1);
    expect(report.trails[0]!.error).toContain("did not finish the objective in 5 calls (--max-llm-calls 5)");
    expect(server.requests).toHaveLength(5);
  });

  test("the workspace's defaults: max-llm-calls: is the cap when no flag gives one", async () => {
    server = startLlmServer([]);
    server.after = call("wait", { seconds: 0 });
    const dir = agentWorkspace("cap-config", server);
    const anchor = join(dir, "trails/config/trailblaze.yaml");
    writeFileSync(anchor, `${readFileSync(anchor, "utf8")}defaults:\n  max-llm-calls: 3\n`);
    const { code, report } = await runJson(dir, ["trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP]);
    expect(code).toBe(1);
    // The message names where the cap was set.
    expect(report.trails[0]!.error).toContain(
      "did not finish the objective in 3 calls (defaults: max-llm-calls: 3 at trails/config/trailblaze.yaml:24:18)",
    );
    expect(server.requests).toHaveLength(3);
  });

  test("a refused key is exit 2, naming the provider and model, and the key is nowhere in the output", async () => {
    server = startLlmServer([{ status: 401, body: { error: { message: "invalid api key" } } }]);
    const dir = agentWorkspace("refused", server);
    const { code, stdout, stderr, report } = await runJson(dir, ["trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP]);
    expect(code).toBe(2);
    expect(report.trails[0]!.error).toContain("gateway/test-model (openai_compatible");
    expect(report.trails[0]!.error).toContain("refused the API key (HTTP 401)");
    expect(report.trails[0]!.error).toContain("$GATEWAY_API_KEY");
    expect(stdout + stderr).not.toContain(AGENT_KEY);
  });

  test("a missing key: a recorded trail replays without it; a step that needs the model fails (exit 2); --llm stops the run before it starts", async () => {
    server = startLlmServer([]);
    const dir = agentWorkspace("no-key", server);
    const noKey = { HOME: tempDir("agent-home"), GATEWAY_API_KEY: "" };
    const replay = await cli(["run", "trails/calendar/drifted.trail.yaml", ...CALENDAR_MAP, "--no-logging", "--reporter", "json"], {
      cwd: dir,
      env: noKey,
    });
    // The config names a model, but nothing here needs it: the recording runs (and fails on its own drift).
    expect(JSON.parse(replay.stdout).trails[0].error).toContain("Show the navigation menu");
    expect(replay.code).toBe(1);
    const words = await cli(["run", "trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, "--no-logging", "--reporter", "json"], {
      cwd: dir,
      env: noKey,
    });
    expect(words.code).toBe(2);
    expect(JSON.parse(words.stdout).trails[0].error).toContain("gateway/test-model needs an API key in $GATEWAY_API_KEY, which is not set");
    const asked = await cli(
      ["run", "trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, "--llm", "gateway/test-model", "--no-logging"],
      {
        cwd: dir,
        env: noKey,
      },
    );
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain("run: gateway/test-model needs an API key in $GATEWAY_API_KEY, which is not set");
    expect(asked.stdout).toBe("");
    expect(server.requests).toHaveLength(0);
  });

  test("a rate limit is retried with backoff; one that persists is a clear error", async () => {
    server = startLlmServer([{ status: 429, headers: { "retry-after-ms": "10" } }, ...WORDS_TURNS]);
    const dir = agentWorkspace("rate", server);
    const ok = await runJson(dir, ["trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP, "--no-save-recording"]);
    expect(ok.code).toBe(0);
    expect(server.requests).toHaveLength(9);

    await server.stop();
    server = startLlmServer([]);
    server.after = { status: 429, headers: { "retry-after-ms": "10" } };
    const limited = await runJson(agentWorkspace("rate", server), ["trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP], {
      TRAILBLAZE_LLM_MAX_RETRIES: "2",
    });
    expect(limited.code).toBe(1);
    expect(limited.report.trails[0]!.error).toContain("kept rate-limiting the agent (after 3 attempts) (HTTP 429)");
    expect(server.requests).toHaveLength(3);
  });

  test("a tool that does not exist, arguments that are not JSON, or bad ones, are told to the model, which goes on", async () => {
    server = startLlmServer([
      call("tapTheDrawer", {}),
      (request) => {
        expect(request.text).toContain("tapTheDrawer {} -> FAILED: there is no tool named tapTheDrawer");
        return { calls: [{ tool: "tap", args: {}, rawArgs: '{"ref": n2' }] };
      },
      (request) => {
        expect(request.text).toContain("tap {} -> FAILED: the arguments of tap are not valid JSON (");
        expect(request.text).not.toContain("there is no tool named tap ");
        return call("tap", { longPress: true });
      },
      (request) => {
        expect(request.text).toMatch(/tap \{"longPress":true\} -> FAILED: .*invalid arguments/);
        return tapDrawer;
      },
      done("the drawer is open"),
      call("assertVisible", { ref: "n7" }),
      done("Settings is there"),
    ]);
    const dir = agentWorkspace("bad-calls", server);
    const { code, report } = await runJson(dir, [
      "trails/calendar/drifted.trail.yaml",
      ...CALENDAR_MAP,
      "--no-use-recorded-steps",
      "--no-save-recording",
    ]);
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(7);
    expect(report.trails[0]!.steps.map((s) => [s.status, s.agent?.why])).toEqual([
      ["passed", "words"],
      ["passed", "words"],
    ]);
    expect(report.trails[0]!.steps[0]!.agent!.turns.map((t) => t.ok)).toEqual([false, false, false, true, true]);
  });

  test("a step the agent completes with no call saves no recording; the list shows the attempts that failed", async () => {
    server = startLlmServer([
      // A condition that does not hold: nothing to do, so nothing to replay.
      done("no dialog is shown"),
      call("tapTheDrawer", {}),
      tapDrawer,
      done("the drawer is open"),
    ]);
    const dir = agentWorkspace("no-call", server);
    const trail = "trails/calendar/conditional.trail.yaml";
    writeFileSync(
      join(dir, trail),
      "config:\n  id: conditional\n  target: calendar\ntrail:\n  - step: If a dialog is shown, dismiss it\n  - step: Open the navigation drawer\n",
    );
    const { code, stdout } = await cli(["run", trail, ...CALENDAR_MAP, "--no-logging"], { cwd: dir, env: agentEnv() });
    expect(code).toBe(0);
    expect(stdout).toContain("✗ tapTheDrawer: there is no tool named tapTheDrawer in this session");
    expect(stdout).toContain("saved the agent's recording of step 2 to");
    const saved = readFileSync(join(dir, trail), "utf8");
    expect(saved).toContain(
      "  - step: If a dialog is shown, dismiss it\n  - step: Open the navigation drawer\n    recording:\n      android:\n",
    );
    expect(saved).not.toContain("android: []");
  });

  test("a server error is retried, then named with its status (no turn left in the script: HTTP 500)", async () => {
    server = startLlmServer([]);
    const dir = agentWorkspace("server-error", server);
    const { code, report } = await runJson(dir, ["trails/calendar/theme-in-words.trail.yaml", ...CALENDAR_MAP], {
      TRAILBLAZE_LLM_MAX_RETRIES: "1",
    });
    expect(code).toBe(1);
    expect(report.trails[0]!.error).toContain("gateway/test-model (openai_compatible at http://127.0.0.1:");
    expect(report.trails[0]!.error).toContain("failed (after 2 attempts) (HTTP 500)");
    expect(server.requests).toHaveLength(2);
  });

  test("--self-heal without a model is a usage error that says what turned it off", async () => {
    const dir = workspaceCopy(AGENT_FIXTURE, "agent-heal-no-model");
    const { code, stderr } = await cli(
      ["run", "trails/calendar/drifted.trail.yaml", ...CALENDAR_MAP, "--self-heal", "--llm", "none", "--no-logging"],
      { cwd: dir, env: agentEnv() },
    );
    expect(code).toBe(2);
    expect(stderr).toBe(
      "error: run: --self-heal needs a model for the agent, and --llm none turns the built-in agent's model off: give --llm provider/model instead (docs/agent.md)\n",
    );
  });
});

describe("secrets and the key", () => {
  test("a secret reaches the tool but never the model, a report, a log or the saved trail", async () => {
    const secret = "hunter2-calendar";
    server = startLlmServer([
      (request) => {
        expect(request.text).toContain("calendarPassword: secret, write {{calendarPassword}}");
        return call("inputText", { text: "{{calendarPassword}}" });
      },
      done("typed"),
      tapDrawer,
      done("open"),
      call("tap", { ref: "n7" }),
      call("tap", { ref: "n5" }),
      call("tap", { ref: "n11" }),
      done("theme"),
      call("assertVisible", { ref: "n6" }),
      done("dark"),
    ]);
    const dir = agentWorkspace("secrets", server);
    const trail = join(dir, "trails/calendar/theme-in-words.trail.yaml");
    writeFileSync(trail, readFileSync(trail, "utf8").replace("trail:\n", "trail:\n  - step: Type the calendar password\n"));
    const { code, stdout, stderr } = await cli(
      [
        "run",
        "trails/calendar/theme-in-words.trail.yaml",
        ...CALENDAR_MAP,
        "--secret",
        `calendarPassword=${secret}`,
        "--reporter",
        "json",
        "--logs",
        "logs",
      ],
      { cwd: dir, env: agentEnv() },
    );
    expect(code).toBe(0);
    const typed = (JSON.parse(stdout) as Report).trails[0]!.steps[0]!.tools[0]!;
    expect(typed).toMatchObject({ name: "inputText", args: { text: "***" } });
    for (const request of server.requests) {
      expect(request.raw).not.toContain(secret);
      expect(request.raw).not.toContain(AGENT_KEY);
    }
    expect(stdout + stderr).not.toContain(secret);
    expect(stdout + stderr).not.toContain(AGENT_KEY);
    const saved = readFileSync(trail, "utf8");
    expect(saved).toContain('text: "{{calendarPassword}}"');
    expect(saved).not.toContain(secret);
    const logs = join(dir, "logs");
    for (const session of readdirSync(logs)) {
      for (const file of readdirSync(join(logs, session))) {
        const text = readFileSync(join(logs, session, file), "utf8");
        expect(text).not.toContain(secret);
        expect(text).not.toContain(AGENT_KEY);
      }
    }
  });
});

describe.each(["host", "on-device"])("the target's own tool, %s", (agent) => {
  test("is offered with its schema, called by the agent, and saved", async () => {
    server = startLlmServer([
      (request) => {
        const tools = (request.body.tools as { function: { name: string; parameters: unknown } }[]).map((t) => t.function);
        expect(tools.find((t) => t.name === "notes_addNote")?.parameters).toMatchObject({ properties: { text: { type: "string" } } });
        // The tools that need an agent of their own are not offered.
        expect(tools.some((t) => t.name === "assertWithAi")).toBe(false);
        return call("notes_addNote", { text: "oat milk" });
      },
      call("assertEquals", { actual: "{{lastNote}}", expected: "oat milk" }),
      done("added"),
    ]);
    const dir = agentWorkspace(`own-tool-${agent}`, server);
    const { code, report, stderr } = await runJson(dir, ["trails/notes/add-note-in-words.trail.yaml", "--agent", agent]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(report.trails[0]!.steps[0]!.tools.map((t) => t.name)).toEqual(["notes_addNote", "assertEquals"]);
    expect(readFileSync(join(dir, "trails/notes/add-note-in-words.trail.yaml"), "utf8")).toContain(
      "- notes_addNote:\n            text: oat milk",
    );
  });
});

describe("step and verify at the terminal", () => {
  test("step does one objective and prints its recording; verify exits 0 when the condition holds and 1 when not", async () => {
    server = startLlmServer([
      tapDrawer,
      done("the drawer is open"),
      call("assertVisible", { ref: "n7" }),
      done("it is there"),
      call("assertVisible", { ref: "n9" }),
    ]);
    const dir = agentWorkspace("step-verify", server);
    const step = await cli(["step", "Open the navigation drawer", "--target", "calendar", ...CALENDAR_MAP, "--no-logging"], {
      cwd: dir,
      env: agentEnv(),
    });
    expect(step.code).toBe(0);
    expect(step.stdout).toContain("✓ the drawer is open (gateway/test-model: 2 model calls");
    expect(step.stdout).toContain("recording:\n  tools:\n    - tapOnElementBySelector:");
    expect(step.stderr).toContain("1. tap");

    const holds = await cli(
      ["verify", "The create-event button is visible", "--target", "calendar", ...CALENDAR_MAP, "--no-logging", "--json"],
      {
        cwd: dir,
        env: agentEnv(),
      },
    );
    expect(holds.code).toBe(0);
    expect(JSON.parse(holds.stdout)).toMatchObject({
      status: "completed",
      recording: [
        {
          tool: "assertVisibleBySelector",
          args: { nodeSelector: { androidAccessibility: { resourceIdRegex: "com.example.calendar:id/fab" } } },
        },
      ],
    });

    const fails = await cli(["verify", "Dark is offered", "--target", "calendar", ...CALENDAR_MAP, "--no-logging"], {
      cwd: dir,
      env: agentEnv(),
    });
    expect(fails.code).toBe(1);
    expect(fails.stdout).toContain('✗ assertVisible: nothing on the screen matches ref "n9"');
  });

  test("a model with vision also gets the screenshot beside the capture, where there is one, with the refs drawn on it", async () => {
    server = startLlmServer([tapDrawer, done("the drawer is open")]);
    const dir = agentWorkspace("vision", server);
    const home = tempDir("agent-vision-home");
    mkdirSync(join(home, ".trailblaze"));
    writeFileSync(
      join(home, ".trailblaze/trailblaze.yaml"),
      `llm:\n  providers:\n    seeing:\n      type: openai_compatible\n      base_url: ${server.url}/v1\n      auth: { required: false }\n      models: [{ id: eyes }]\n`,
    );
    const { code } = await cli(
      ["step", "Open the navigation drawer", "--target", "calendar", ...CALENDAR_MAP, "--llm", "seeing/eyes", "--no-logging"],
      { cwd: dir, env: { HOME: home } },
    );
    expect(code).toBe(0);
    // The day view has a WebP beside its capture, sent with the outline's refs drawn on it (set-of-mark:
    // a JPEG, "/9j/" in base64); the drawer's capture has no screenshot.
    expect(server.requests.map((r) => r.images.map((image) => image.slice(0, 27)))).toEqual([["data:image/jpeg;base64,/9j/"], []]);
  });

  test("with --browser none no Chromium starts: the capture's screenshot goes as it is, unmarked", async () => {
    server = startLlmServer([tapDrawer, done("the drawer is open")]);
    const dir = agentWorkspace("vision-no-browser", server);
    const home = tempDir("agent-vision-home");
    mkdirSync(join(home, ".trailblaze"));
    writeFileSync(
      join(home, ".trailblaze/trailblaze.yaml"),
      `llm:\n  providers:\n    seeing:\n      type: openai_compatible\n      base_url: ${server.url}/v1\n      auth: { required: false }\n      models: [{ id: eyes }]\n`,
    );
    const { code } = await cli(
      [
        "step",
        "Open the navigation drawer",
        "--target",
        "calendar",
        ...CALENDAR_MAP,
        "--llm",
        "seeing/eyes",
        "--browser",
        "none",
        "--no-logging",
      ],
      { cwd: dir, env: { HOME: home } },
    );
    expect(code).toBe(0);
    // The WebP beside the day view's capture, as upstream ships it: no marks drawn, as drawing them needs Chromium.
    expect(server.requests.map((r) => r.images.map((image) => image.slice(0, 23)))).toEqual([["data:image/webp;base64,"], []]);
  });

  test("with the model turned off, step says what turned it off (exit 2)", async () => {
    const dir = workspaceCopy(AGENT_FIXTURE, "agent-step-no-model");
    const { code, stderr } = await cli(["step", "Open Settings", "--target", "calendar", "--llm", "none"], { cwd: dir, env: agentEnv() });
    expect(code).toBe(2);
    expect(stderr).toBe(
      "error: step: --llm none turns the built-in agent's model off: give --llm provider/model instead (docs/agent.md)\n",
    );
  });
});

describe("a web target on a real page", () => {
  test("the model sees the page's elements with their refs and, with vision, its screenshot; the user's ~/.trailblaze config chooses the model", async () => {
    server = startLlmServer([
      (request) => {
        // The page the trail's first step opened, its elements with the refs the web tools take.
        expect(request.text).toMatch(/\[e\d+\] button "Add one"/);
        expect(request.images.length).toBe(1);
        // The model may open it again: the trail's recording names it.
        return call("web_navigate", { url: "../pages/shop.html" });
      },
      call("web_click", { ref: 'button "Add one"' }),
      done("one item added"),
      (request) => {
        expect(request.text).toContain("Items in basket: 1");
        return call("web_verifyTextVisible", { text: "Items in basket: 1" });
      },
      done("one item in the basket"),
    ]);
    const dir = workspaceCopy(join(REPO, "fixtures/web"), "agent-web");
    writeFileSync(
      join(dir, "trails/in-words.trail.yaml"),
      "config:\n  id: in-words\n  target: webshop\ntrail:\n  - step: Open the shop\n    recording:\n      web:\n        - web_navigate: { url: ../pages/shop.html }\n  - step: Add one item to the basket\n  - verify: The basket holds one item\n",
    );
    const home = tempDir("agent-web-home");
    mkdirSync(join(home, ".trailblaze"));
    writeFileSync(
      join(home, ".trailblaze/trailblaze.yaml"),
      `llm:\n  providers:\n    openai:\n      base_url: ${server.url}/v1\n      models:\n        - id: gpt-test\n  defaults:\n    model: openai/gpt-test\n`,
    );
    const { code, stdout, stderr } = await cli(["run", "trails/in-words.trail.yaml", "--reporter", "json", "--no-logging"], {
      cwd: dir,
      env: { HOME: home, OPENAI_API_KEY: AGENT_KEY },
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(report.trails[0]!.steps[1]!.agent).toMatchObject({ model: "openai/gpt-test", why: "no-recording" });
    expect(readFileSync(join(dir, "trails/in-words.trail.yaml"), "utf8")).toContain(
      "  - step: Add one item to the basket\n    recording:\n      web:\n        - web_navigate:",
    );
  }, 120_000);
});
