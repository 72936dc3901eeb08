// executeTool (@trailblaze/scripting): a tool calls other tools of its session over its own MCP
// connection, as a subprocess and in QuickJS, with the same results and memory written once.
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { EXECUTE_METHOD } from "@trailblaze/scripting";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import { resolveSessionSpec } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const RELAY = join(REPO, "fixtures/execute");
const logs = tempDir("execute-tool-logs");
const opened: Session[] = [];
afterAll(async () => void (await Promise.all(opened.map((session) => session.close()))));

async function start(agent: "host" | "on-device"): Promise<Session> {
  const workspace = await loadWorkspace(await findConfigDir({ cwd: RELAY }), { cwd: RELAY });
  const spec = resolveSessionSpec(workspace, { logs, agent }, { cwd: RELAY, env: { ...process.env, PATH: TEST_PATH } });
  const session = await Session.start(spec, { onWarning: () => {} });
  opened.push(session);
  return session;
}

async function scenario(agent: "host" | "on-device") {
  const session = await start(agent);
  const greet = await session.call("relay_greet", { name: "ada" });
  const failing = await session.call("relay_failing", {});
  const reentry = await session.call("relay_reentry", {});
  return { greet, failing, reentry, memory: session.memory.snapshot(), transport: session.registry.get("relay_greet")?.transport };
}

describe("executeTool", () => {
  test("gives the same results as a subprocess and in QuickJS; nested memory changes apply once", async () => {
    const [host, device] = await Promise.all([scenario("host"), scenario("on-device")]);
    expect([host.transport, device.transport]).toEqual(["stdio", "quickjs"]);
    // The "N registered tool(s)" hint differs: built-ins marked requiresHost are not registered on-device.
    const comparable = ({ transport: _transport, ...rest }: typeof host) =>
      JSON.parse(JSON.stringify(rest).replaceAll(/\d+ registered tool/g, "N registered tool"));
    expect(comparable(device)).toEqual(comparable(host));

    expect(host.greet).toMatchObject({
      variant: "Success",
      message: "remembered greeting; HELLO ADA",
      structuredContent: { remembered: "success", shouted: { upper: "HELLO ADA" } },
    });
    expect(host.memory).toEqual({ greeting: "hello ada" });
    expect(host.failing).toMatchObject({
      variant: "Success",
      message: `the nested call ended error/ExceptionThrown: expected "2" but was "1"`,
    });
    const [own, unknown] = host.reentry.message.split("\n");
    expect(own).toBe("echo: from my own server");
    // The count of registered tools grows with the framework tools; the rest of the text is fixed.
    expect(unknown).toMatch(
      /^Unknown tool "relay_noSuchTool": no registered tool has that name; run `trailblaze tools` to list the \d+ registered tool\(s\)$/,
    );
  });

  test("the request method is the one the client answers", () => {
    expect(EXECUTE_METHOD).toBe("trailblaze/execute");
  });
});
