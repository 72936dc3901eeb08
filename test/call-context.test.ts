// The session and the call in every call's envelope, with both agents: each tool of
// fixtures/call-context answers the `sessionId` and `invocationId` it read (fromMeta, contextOf,
// a trailblaze.run() handler's ctx, a pure-JS handler's ctx). The session id is the session's; every
// call has its own invocation id, a tool's nested call too, the one the dispatcher reports for
// it; ctx.logger's lines reach the server log and the server's output; ctx.memory writes of a
// trailblaze.run() handler come back. The servers run as bun subprocesses (host agent) and bundled
// into QuickJS (on-device); both answer alike.

import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import type { CallRecord } from "../src/dispatcher/dispatcher.ts";
import type { ServerLogEntry } from "../src/session/server-log.ts";
import { resolveSessionSpec } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { processAlive } from "./support/process-alive.ts";
import { REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const CALLS = join(REPO, "fixtures/call-context");
const logs = tempDir("call-context-logs");
const opened: Session[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

type Agent = "host" | "on-device";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Observed {
  answers: Record<string, Record<string, unknown>>;
  calls: CallRecord[];
  serverLogs: ServerLogEntry[];
  output: Record<string, readonly string[]>;
  memory: Record<string, unknown>;
}

/** Each tool called once in a fresh session, what the session saw of the calls; no process survives it. */
async function observe(agent: Agent): Promise<Observed> {
  const workspace = await loadWorkspace(await findConfigDir({ cwd: CALLS }), { cwd: CALLS });
  const spec = resolveSessionSpec(
    workspace,
    { logs, agent, "session-id": `call-context-${agent}` },
    { cwd: CALLS, env: { ...process.env, PATH: TEST_PATH } },
  );
  const calls: CallRecord[] = [];
  const serverLogs: ServerLogEntry[] = [];
  const session = await Session.start(spec, { onCall: (record) => calls.push(record), onServerLog: (entry) => serverLogs.push(entry) });
  opened.push(session);
  const answers: Record<string, Record<string, unknown>> = {};
  for (const tool of ["calls_reportFromMeta", "calls_reportRunForm", "calls_reportPureJs"]) {
    const result = await session.call(tool, {});
    expect(result).toMatchObject({ variant: "Success" });
    answers[tool] = result.structuredContent as Record<string, unknown>;
  }
  const memory = session.memory.snapshot();
  const pids = session.pids();
  await session.close();
  expect(pids.filter(processAlive)).toEqual([]);
  // After close: every line the servers wrote is in (a subprocess's stderr is read to its end).
  const output = Object.fromEntries(
    ["tools/run-form.ts", "tools/pure.js", "tools/from-meta.ts"].map((source) => [source, session.diagnostics(source)]),
  );
  return { answers, calls, serverLogs, output, memory };
}

/** What each agent saw, with each id checked and then replaced by its role, so both agents compare equal. */
function checked(agent: Agent, seen: Observed) {
  const sessionId = `call-context-${agent}`;
  const { calls_reportFromMeta: fromMeta, calls_reportRunForm: runForm, calls_reportPureJs: pureJs } = seen.answers;
  const nested = runForm!.nested as Record<string, unknown>;
  // The dispatcher's records, in the order calls ended: the nested call ends inside the run-form call.
  expect(seen.calls.map((call) => call.tool)).toEqual([
    "calls_reportFromMeta",
    "calls_reportPureJs",
    "calls_reportRunForm",
    "calls_reportPureJs",
  ]);
  const [fromMetaCall, nestedCall, runFormCall, pureJsCall] = seen.calls.map((call) => call.invocationId);
  expect([fromMeta!.invocationId, nested.invocationId, runForm!.invocationId, pureJs!.invocationId]).toEqual([
    fromMetaCall,
    nestedCall,
    runFormCall,
    pureJsCall,
  ]);
  const ids = seen.calls.map((call) => call.invocationId);
  for (const id of ids) expect(id).toMatch(UUID);
  expect(new Set(ids).size).toBe(4);
  expect([fromMeta!.sessionId, fromMeta!.envelopeSessionId, runForm!.sessionId, nested.sessionId, pureJs!.sessionId]).toEqual(
    Array(5).fill(sessionId),
  );
  expect(fromMeta!.envelopeInvocationId).toBe(fromMeta!.invocationId);
  expect(seen.memory).toEqual({ runFormInvocation: runFormCall });

  const role = new Map<unknown, string>([
    [sessionId, "<session>"],
    [fromMetaCall, "<fromMeta call>"],
    [nestedCall, "<nested call>"],
    [runFormCall, "<run-form call>"],
    [pureJsCall, "<pure-js call>"],
  ]);
  const roles = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(roles)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, roles(v)]))
        : typeof value === "string"
          ? [...role].reduce((text, [id, name]) => text.replaceAll(String(id), name), value)
          : value;
  return {
    answers: roles(seen.answers),
    serverLogs: roles(seen.serverLogs.map(({ time: _time, ...entry }) => entry)),
    // The logger's own lines, whatever else the server wrote (a console log has a time and a level first).
    output: roles(
      Object.fromEntries(
        Object.entries(seen.output).map(([source, lines]) => [
          source,
          lines.filter((l) => l.includes("] [")).map((l) => l.slice(l.indexOf("[calls_"))),
        ]),
      ),
    ),
  };
}

describe("sessionId and invocationId in every call's envelope", () => {
  test("every form reads the session's id and its own call's id; ctx.logger writes to the server log and the output", async () => {
    const [host, device] = await Promise.all([observe("host"), observe("on-device")]);
    const seen = checked("host", host);
    expect(checked("on-device", device)).toEqual(seen);
    expect(seen).toEqual({
      answers: {
        calls_reportFromMeta: {
          form: "fromMeta",
          sessionId: "<session>",
          invocationId: "<fromMeta call>",
          envelopeSessionId: "<session>",
          envelopeInvocationId: "<fromMeta call>",
          logger: "no-op",
        },
        calls_reportRunForm: {
          form: "run",
          sessionId: "<session>",
          invocationId: "<run-form call>",
          nested: { form: "pure-js", sessionId: "<session>", invocationId: "<nested call>" },
        },
        calls_reportPureJs: { form: "pure-js", sessionId: "<session>", invocationId: "<pure-js call>" },
      },
      serverLogs: [
        {
          server: "tools/run-form.ts",
          level: "info",
          logger: "calls_reportRunForm",
          data: { message: "reporting", fields: { form: "run", invocationId: "<run-form call>" } },
        },
        { server: "tools/run-form.ts", level: "warning", logger: "calls_reportRunForm", data: "plain line" },
        { server: "tools/pure.js", level: "error", logger: "calls_reportPureJs", data: { message: "pure-js line", fields: { n: 1 } } },
        { server: "tools/pure.js", level: "error", logger: "calls_reportPureJs", data: { message: "pure-js line", fields: { n: 1 } } },
      ],
      output: {
        "tools/run-form.ts": [
          '[calls_reportRunForm] [info] reporting {"form":"run","invocationId":"<run-form call>"}',
          "[calls_reportRunForm] [warn] plain line",
        ],
        "tools/pure.js": ['[calls_reportPureJs] [error] pure-js line {"n":1}', '[calls_reportPureJs] [error] pure-js line {"n":1}'],
        "tools/from-meta.ts": [],
      },
    });
  }, 90_000); // the first session builds every bundle
});
