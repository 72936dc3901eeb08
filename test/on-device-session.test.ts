// On-device sessions: the host fixture source, unchanged, bundled and run in
// QuickJS, must register the same tools minus requiresHost and map every
// portable call exactly as the stdio path does; trailblaze.execute is bounded.

import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import { resolveSessionSpec, type SessionFlags } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const logs = tempDir("on-device-logs");
const opened: Session[] = [];
afterAll(async () => void (await Promise.all(opened.map((s) => s.close()))));

async function start(workspaceDir: string, flags: SessionFlags): Promise<Session> {
  const workspace = await loadWorkspace(await findConfigDir({ cwd: workspaceDir }));
  const spec = resolveSessionSpec(workspace, { logs, ...flags }, { cwd: workspaceDir, env: { ...process.env, PATH: TEST_PATH } });
  const session = await Session.start(spec, {});
  opened.push(session);
  return session;
}

const HOST = join(REPO, "fixtures/host");

describe("the host fixture on-device", () => {
  test("same tools minus requiresHost, identical mapped results for portable tools", async () => {
    const flags: SessionFlags = { target: "fixture", memory: ["x=7"], screen: "720x1280" };
    const [host, device] = await Promise.all([start(HOST, { ...flags, agent: "host" }), start(HOST, { ...flags, agent: "on-device" })]);
    // exec (a built-in) runs on the host too.
    expect(device.registry.names()).toEqual(host.registry.names().filter((n) => n !== "fixture_hostOnly" && n !== "exec"));
    expect(device.registry.findSkipped("fixture_hostOnly")).toMatchObject({ reason: "trailblaze/requiresHost" });
    expect(device.registry.get("fixture_echo")?.transport).toBe("quickjs");
    expect(device.registry.get("fixture_contextArgs")?.inputSchema).toEqual(host.registry.get("fixture_contextArgs")?.inputSchema);

    const calls: [string, Record<string, unknown>][] = [
      ["fixture_echo", { text: "hi" }],
      ["fixture_whereAmI", { label: "here" }],
      ["fixture_contextArgs", { note: "n" }],
      ["fixture_pushed", {}],
      ["fixture_accessibilityOnly", {}],
      ...["success", "isError", "throw", "fatal", "missing", "custom", "nonsense"].map((kind): [string, Record<string, unknown>] => [
        "fixture_variant",
        { kind },
      ]),
    ];
    // The envelope's ids are each session's and each call's own: compared as what they are.
    const ids = (session: Session, result: unknown) =>
      JSON.parse(
        JSON.stringify(result)
          .replaceAll(session.spec.id, "<session>")
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<call>"),
      );
    for (const [name, args] of calls) {
      const [onHost, onDevice] = await Promise.all([host.dispatcher.dispatch(name, args), device.dispatcher.dispatch(name, args)]);
      expect({ name, args, result: ids(device, onDevice) }).toEqual({ name, args, result: ids(host, onHost) });
    }
    await Promise.all([host.close(), device.close()]);
  });
});

describe("trailblaze.execute", () => {
  const PINGPONG = join(REPO, "fixtures/ondevice");

  test("reaches built-ins and tools of another server", async () => {
    const session = await start(PINGPONG, { agent: "on-device" });
    expect(await session.dispatcher.dispatch("od_assertViaBuiltin", { value: "ok" })).toMatchObject({
      variant: "Success",
      message: 'Success: "ok" equals "ok"',
    });
    expect(await session.dispatcher.dispatch("od_assertViaBuiltin", { value: "no" })).toMatchObject({
      message: 'ExceptionThrown: expected "ok" but was "no"',
    });
    expect(await session.dispatcher.dispatch("od_callOtherServer", { n: 3 })).toMatchObject({
      variant: "Success",
      message: "other server said: pong answered ping-3",
    });
    await session.close();
  });

  test("a call back into the same bundle is answered: the guest serves requests concurrently", async () => {
    const session = await start(PINGPONG, { agent: "on-device" });
    expect(await session.dispatcher.dispatch("od_callSelf")).toMatchObject({ variant: "Success", message: "re-entry was allowed" });
    await session.close();
  });

  test("16 nested calls work, the 17th is refused", async () => {
    const session = await start(PINGPONG, { agent: "on-device" });
    expect(await session.dispatcher.dispatch("od_ping", { n: 16 })).toMatchObject({ variant: "Success", message: "ping bottom" });
    expect(await session.dispatcher.dispatch("od_ping", { n: 17 })).toMatchObject({
      variant: "ExceptionThrown",
      message:
        'trailblaze.execute("od_pong") refused: 16 trailblaze.execute calls are already in flight in this session, the most at once ' +
        "(nested calls and calls side by side both count: a tool that calls itself without end, or more calls awaited together)",
    });
    // The session is still usable afterwards.
    expect(await session.dispatcher.dispatch("od_ping", { n: 2 })).toMatchObject({ variant: "Success" });
    await session.close();
  });
});
