// A3: what `trailblaze eval` adds to the model's own time. One eval of 20 runs on a capture (a
// fresh process, as a user runs it: one trail of a step and a check on fixtures/agent's calendar
// day view capture, --repeat 20, every step through the agent), against the model's own time: the
// local model server answers each request after MODEL_MS, as a fast provider would, and the time
// from each request's arrival to its answer is summed. What is left is the eval's: the process,
// twenty sessions, the screen outlines, the requests and answers, the reports.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startLlmServer, type SeenRequest, type Turn } from "../../test/support/llm-server.ts";
import { BUN, ENV, ratioResult, series, type ScenarioResult } from "../harness.ts";
import { median } from "../stats.ts";

const AGENT_FIXTURE = resolve(import.meta.dir, "../../fixtures/agent");
const CLI = resolve(import.meta.dir, "../../src/cli/main.ts");
const DAY_VIEW = join(AGENT_FIXTURE, "trails/config/trailmaps/calendar/waypoints/calendar_android_day_view.example.json");
/** A fast provider's time to answer one tool call: the low end of what real ones take (0.5–3 s). */
const MODEL_MS = 500;
const RUNS = 20;

/** Each objective: one check on the screen, then objectiveStatus COMPLETED; every answer after MODEL_MS. */
function checkingModel(request: SeenRequest): Turn {
  const done = request.text.includes("## Done so far for this objective");
  return done
    ? { calls: [{ tool: "objectiveStatus", args: { status: "COMPLETED", explanation: "checked" } }], delayMs: MODEL_MS }
    : { calls: [{ tool: "assertNotVisibleWithText", args: { text: "December" } }], delayMs: MODEL_MS };
}

/** One eval of `runs` runs in a fresh process; its wall time, and the model's own time summed at the server. */
async function evalOnce(dir: string, trail: string, runs: number, server: ReturnType<typeof startLlmServer>) {
  const before = server.requests.length;
  const start = performance.now();
  const child = Bun.spawn(
    [
      BUN,
      CLI,
      "eval",
      trail,
      "--llm",
      "bench/m",
      "--repeat",
      String(runs),
      "--target",
      "calendar",
      "--capture",
      DAY_VIEW,
      "--reporter",
      "json",
      "--no-logging",
    ],
    {
      cwd: AGENT_FIXTURE,
      env: { ...ENV, HOME: dir, TRAILBLAZE_DEFAULT_MODEL: "", NO_COLOR: "1" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [status, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
  const ms = performance.now() - start;
  let passed = -1;
  try {
    passed = (JSON.parse(stdout) as { models: { passed: number }[] }).models[0]!.passed;
  } catch {
    // reported below
  }
  if (status !== 0 || passed !== runs)
    throw new Error(`bench A3: trailblaze eval exited ${status} with ${passed} of ${runs} runs passed: ${stderr.slice(-1500)}`);
  const requests = server.requests.slice(before);
  return { ms, modelMs: requests.reduce((sum, r) => sum + (r.servedMs ?? 0), 0), requests: requests.length };
}

export async function a3EvalOverhead(reps: number): Promise<ScenarioResult> {
  const dir = mkdtempSync(join(tmpdir(), "trailblaze-bench-a3-"));
  const server = startLlmServer([]);
  server.after = checkingModel;
  mkdirSync(join(dir, ".trailblaze"));
  writeFileSync(
    join(dir, ".trailblaze/trailblaze.yaml"),
    `llm:\n  providers:\n    bench:\n      type: openai_compatible\n      base_url: ${server.url}/v1\n      auth: { required: false }\n      models: [{ id: m, vision: false }]\n`,
  );
  const trail = join(dir, "check-the-day.trail.yaml");
  writeFileSync(
    trail,
    "config:\n  id: check-the-day\n  target: calendar\ntrail:\n  - step: Check that the day view is not on December\n  - verify: December is not shown\n",
  );
  const ours: number[] = [];
  const modelMs: number[] = [];
  let calls = 0;
  try {
    await evalOnce(dir, trail, 2, server); // warm-up: caches, the precompiled CLI
    for (let rep = 0; rep < reps; rep++) {
      const once = await evalOnce(dir, trail, RUNS, server);
      ours.push(once.ms);
      modelMs.push(once.modelMs);
      calls = once.requests;
    }
  } finally {
    await server.stop();
  }
  return ratioResult(
    {
      id: "A3",
      title: `trailblaze eval of ${RUNS} runs on a capture vs the model's own time`,
      unit: "ms",
      goal: "<= 1.2x",
      limit: 1.2,
    },
    series(`a fresh process: eval, ${RUNS} runs of a step and a check on the calendar day view capture (ms)`, ours),
    series(`the model's own time: ${calls} answers, ${MODEL_MS} ms each, summed at the server (ms)`, modelMs),
    {
      "runs an eval": RUNS,
      "model calls an eval": calls,
      "model's answer (ms)": MODEL_MS,
      "eval's own time a run, median (ms)": Number(median(ours.map((ms, i) => (ms - modelMs[i]!) / RUNS)).toFixed(1)),
    },
  );
}
