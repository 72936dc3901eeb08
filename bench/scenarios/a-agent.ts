// A1 and A2: the built-in agent. Both talk to a local server that speaks OpenAI's chat completions
// and answers at once (test/support/llm-server.ts), so what is measured is ours, not a provider.
//
// A1: bytes of the first request `trailblaze step` sends (the whole process, as a user runs it) on
// upstream's calendar day view capture, against the capture's raw view-hierarchy JSON. Upstream's
// capture is read from an upstream checkout (TRAILBLAZE_UPSTREAM_DIR, or the git snapshot at
// /work/.mirror/block+trailblaze/repo); without one, the scenario says so and is not met.
//
// A2: the loop's own time per turn (the screen outline, the request, the answer; the tool call's own
// time in the session is measured apart and left out) against a hand-written loop: a bare AI SDK
// `generateText` of the same request, turn by turn, to the same server, running the same tool call
// between requests as the agent does (its time left out as well), so that what a tool call leaves
// behind (garbage, cold caches) falls on both sides alike.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generateText, jsonSchema, tool } from "ai";
import { runObjective } from "../../src/agent/agent-loop.ts";
import { callPolicy } from "../../src/agent/call-guard.ts";
import { offeredTools, toOffered } from "../../src/agent/agent-tools.ts";
import { startSession } from "../../src/cli/open-session.ts";
import { loadWorkspace } from "../../src/config/workspace.ts";
import { Secrets } from "../../src/core/secrets.ts";
import { agentModel } from "../../src/llm/ask-model.ts";
import { languageModel } from "../../src/llm/language-model.ts";
import { chooseModel } from "../../src/llm/model-choice.ts";
import { emptyLlmConfig } from "../../src/llm/llm-config.ts";
import { resolveSessionSpec } from "../../src/session/session-spec.ts";
import { startLlmServer, type TurnSource } from "../../test/support/llm-server.ts";
import { BUN, ENV, interleaved, LOGS_DIR, ratioResult, series, timed, type ScenarioResult } from "../harness.ts";
import { median } from "../stats.ts";

const AGENT_FIXTURE = resolve(import.meta.dir, "../../fixtures/agent");
const CLI = resolve(import.meta.dir, "../../src/cli/main.ts");
const DAY_VIEW = "trails/config/trailmaps/calendar/waypoints/calendar_android_day_view.example.json";

/** Upstream's day view capture: from TRAILBLAZE_UPSTREAM_DIR (a checkout), else the snapshot's git directory. */
function upstreamDayView(): { text: string; from: string } | undefined {
  const dir = process.env.TRAILBLAZE_UPSTREAM_DIR;
  if (dir && existsSync(join(dir, DAY_VIEW))) return { text: readFileSync(join(dir, DAY_VIEW), "utf8"), from: join(dir, DAY_VIEW) };
  const gitDir = "/work/.mirror/block+trailblaze/repo";
  if (!existsSync(gitDir)) return undefined;
  const shown = spawnSync("git", ["--git-dir", gitDir, "show", `HEAD:${DAY_VIEW}`], { encoding: "utf8", maxBuffer: 64 << 20 });
  return shown.status === 0 ? { text: shown.stdout, from: `${gitDir} HEAD:${DAY_VIEW}` } : undefined;
}

/** The text of the system message an OpenAI chat completions request carries. */
function systemText(body: Record<string, unknown>): string {
  const message = (body.messages as { role: string; content: string | { text: string }[] }[]).find((m) => m.role === "system")!;
  return typeof message.content === "string" ? message.content : message.content[0]!.text;
}

/** The text of the user message an OpenAI chat completions request carries. */
function userText(body: Record<string, unknown>): string {
  const message = (body.messages as { role: string; content: string | { text: string }[] }[]).find((m) => m.role === "user")!;
  return typeof message.content === "string" ? message.content : message.content[0]!.text;
}

const done: TurnSource = { calls: [{ tool: "objectiveStatus", args: { status: "COMPLETED", explanation: "done" } }] };

export async function a1RequestBytes(reps: number): Promise<ScenarioResult> {
  const head = {
    id: "A1",
    title: "Agent request bytes on upstream's calendar day view vs its raw view-hierarchy JSON",
    unit: "bytes" as const,
    goal: "<= 0.25x",
    limit: 0.25,
  };
  const capture = upstreamDayView();
  if (capture === undefined) {
    return {
      ...head,
      ours: series("request", []),
      goal: head.goal,
      met: false,
      details: { skipped: "no upstream checkout: set TRAILBLAZE_UPSTREAM_DIR to one" },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "trailblaze-bench-a1-"));
  const file = join(dir, "day_view.json");
  writeFileSync(file, capture.text);
  const raw = Buffer.byteLength(capture.text);
  const server = startLlmServer([]);
  server.after = done;
  mkdirSync(join(dir, ".trailblaze"));
  writeFileSync(
    join(dir, ".trailblaze/trailblaze.yaml"),
    `llm:\n  providers:\n    bench:\n      type: openai_compatible\n      base_url: ${server.url}/v1\n      auth: { required: false }\n      models: [{ id: m, vision: false }]\n`,
  );
  const ours: number[] = [];
  const baseline: number[] = [];
  let last = "";
  try {
    for (let rep = 0; rep < reps; rep++) {
      const before = server.requests.length;
      // Spawned without blocking: the server answering it runs in this process.
      const child = Bun.spawn(
        [BUN, CLI, "step", "Open the navigation drawer", "--target", "calendar", "--capture", file, "--llm", "bench/m", "--no-logging"],
        {
          cwd: AGENT_FIXTURE,
          env: { ...ENV, HOME: dir, TRAILBLAZE_DEFAULT_MODEL: "", NO_COLOR: "1" },
          stdin: "ignore",
          stdout: "pipe",
          stderr: "pipe",
        },
      );
      const [status, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
      if (status !== 0 || server.requests.length === before)
        throw new Error(`bench A1: trailblaze step exited ${status}: ${stderr.slice(-1500)}`);
      last = server.requests[before]!.raw;
      ours.push(Buffer.byteLength(last));
      baseline.push(raw);
    }
  } finally {
    await server.stop();
  }
  const body = JSON.parse(last) as { tools: unknown[]; messages: { content: unknown }[] };
  return ratioResult(
    head,
    series("first request of `trailblaze step` (bytes on the wire)", ours),
    series("the capture's raw JSON", baseline),
    {
      capture: capture.from,
      "tool schemas (bytes)": Buffer.byteLength(JSON.stringify(body.tools)),
      "messages (bytes)": Buffer.byteLength(JSON.stringify(body.messages)),
      "tools offered": body.tools.length,
    },
  );
}

/** Repetitions of each side run first and not counted: the JIT settles on both paths before either is timed. */
const A2_WARMUP = 3;

export async function a2LoopTurn(reps: number): Promise<ScenarioResult> {
  const turns = 20;
  const server = startLlmServer([]);
  const workspace = await loadWorkspace(join(AGENT_FIXTURE, "trails/config"), { cwd: AGENT_FIXTURE });
  const spec = resolveSessionSpec(
    workspace,
    { target: "calendar", capture: join(AGENT_FIXTURE, DAY_VIEW), logs: LOGS_DIR },
    { cwd: AGENT_FIXTURE, env: ENV },
  );
  const io = {
    stdout: () => {},
    stderr: (text: string) => void process.stderr.write(`  [session] ${text}`),
    cwd: AGENT_FIXTURE,
    env: ENV,
    isTTY: false,
  };
  const session = await startSession(spec, io);
  const config = emptyLlmConfig();
  config.providers.set("bench", {
    name: "bench",
    type: "openai_compatible",
    enabled: true,
    baseUrl: `${server.url}/v1`,
    headers: {},
    keyRequired: false,
    models: [{ id: "m", vision: false, where: { file: "bench", line: 0, col: 0 } }],
    where: { file: "bench", line: 0, col: 0 },
  });
  const choice = chooseModel(config, { llm: "bench/m" }, {})!;
  const agent = agentModel(choice, {});
  const checkCall = { tool: "assertNotVisibleWithText", args: { text: "December" } };
  const check: TurnSource = { calls: [checkCall] };
  const model = await languageModel(choice);
  const offered = offeredTools(session.registry, { driver: session.spec.driver, verify: false, screen: session.screen }).map(toOffered);
  const tools = Object.fromEntries(
    offered.map((t) => [
      t.name,
      tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as Parameters<typeof jsonSchema>[0]) }),
    ]),
  );
  // Each repetition starts from a collected heap, the server's log of requests emptied: no sample pays
  // for the garbage of the one before it, whichever side made it.
  const settle = () => {
    server.requests.length = 0;
    Bun.gc(true);
  };
  // The bare calls send what the loop sent, turn by turn (the same prompt texts, growing history included).
  let texts: string[] = [];
  let system = "";
  const withTools: number[] = [];
  try {
    const samples = await interleaved(
      {
        ours: async () => {
          settle();
          let n = 0;
          const sent: string[] = [];
          server.after = (request) => {
            sent.push(userText(request.body));
            system = systemText(request.body);
            return ++n < turns ? (check as Exclude<TurnSource, Function>) : (done as Exclude<TurnSource, Function>);
          };
          texts = sent;
          // The tool's own time (the session dispatching assertNotVisibleWithText) is the session's, not the loop's.
          let inTools = 0;
          const call = async (name: string, args: Record<string, unknown>) => {
            const t0 = performance.now();
            const result = await session.call(name, args);
            inTools += performance.now() - t0;
            return result;
          };
          const ms = await timed(async () => {
            const outcome = await runObjective({
              session,
              agent,
              objective: "Check the month",
              verify: false,
              maxCalls: { value: turns, from: "the scenario's turns" },
              memory: session.memory,
              secrets: new Secrets(),
              lookup: (key) => session.memory.lookup(key),
              knownKeys: () => session.memory.keys(),
              policy: callPolicy(session),
              call,
            });
            if (outcome.status !== "completed" || outcome.turns.length !== turns)
              throw new Error(`bench A2: the objective ended ${outcome.status} after ${outcome.turns.length} turns: ${outcome.message}`);
          });
          withTools.push(ms / turns);
          return (ms - inTools) / turns;
        },
        baseline: async () => {
          settle();
          server.after = check;
          let inTools = 0;
          const ms = await timed(async () => {
            for (let i = 0; i < turns; i++) {
              // A hand-written loop runs the model's call too: the same call, its own time left out as on our side.
              if (i > 0) inTools += await timed(() => session.call(checkCall.tool, checkCall.args));
              const text = texts[i] ?? "## Objective\nCheck the month";
              const result = await generateText({
                model,
                system,
                messages: [{ role: "user", content: [{ type: "text", text }] }],
                tools,
                toolChoice: "required",
                maxRetries: agent.maxRetries,
                maxOutputTokens: 4096,
              });
              if (result.toolCalls.length !== 1) throw new Error("bench A2: the bare call got no tool call");
            }
          });
          return (ms - inTools) / turns;
        },
      },
      reps,
      A2_WARMUP,
    );
    return ratioResult(
      {
        id: "A2",
        title: "Agent loop's own time per turn (screen outline, request, answer) vs a bare AI SDK generateText",
        unit: "ms",
        goal: "<= 1.2x",
        limit: 1.2,
      },
      series(`runObjective, ${turns} turns on a capture, less the tools' own time (ms a turn)`, samples.ours),
      series("generateText with the same prompt and tools (ms a call)", samples.baseline),
      { "turns a repetition": turns, "ours with the tool calls' own time, median (ms a turn)": Number(median(withTools).toFixed(3)) },
    );
  } finally {
    await session.close();
    await server.stop();
  }
}
