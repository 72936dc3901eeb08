// ctx.target with upstream's semantics, in every authoring form and both agents: a per-file tool,
// a standard MCP server reading fromMeta(extra._meta), a trailblaze.run() server and upstream's
// pure-JS form (fixtures/target-context) each answer what they read of the session's target and
// what ctx.target?.resolveAppId(…) / resolveBaseUrl(…) give, on each platform. The MCP servers run
// as bun subprocesses (host agent) and bundled into QuickJS (on-device); both must answer the same.

import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import { resolveSessionSpec, type SessionFlags } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { processAlive } from "./support/process-alive.ts";
import { REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const WIKI = join(REPO, "fixtures/target-context");
const logs = tempDir("target-context-logs");
const opened: Session[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

type Agent = "host" | "on-device";
const TOOLS = ["wiki_perFileTarget", "wiki_fromMetaTarget", "wiki_runFormTarget", "wiki_pureJsTarget"] as const;

/** Each tool's structured answer in a fresh session; no process survives it. */
async function answers(agent: Agent, flags: SessionFlags): Promise<Record<string, unknown>> {
  const workspace = await loadWorkspace(await findConfigDir({ cwd: WIKI }), { cwd: WIKI });
  const spec = resolveSessionSpec(workspace, { logs, ...flags, agent }, { cwd: WIKI, env: { ...process.env, PATH: TEST_PATH } });
  const session = await Session.start(spec, {});
  opened.push(session);
  const transports = Object.fromEntries(TOOLS.map((tool) => [tool, session.registry.get(tool)?.transport]));
  // The MCP servers run as bun subprocesses with the host agent and in QuickJS on-device; per-file
  // and pure-JS tools run in QuickJS with both (upstream's in-process default).
  const server = agent === "host" ? "stdio" : "quickjs";
  expect(transports).toEqual({
    wiki_perFileTarget: "quickjs",
    wiki_fromMetaTarget: server,
    wiki_runFormTarget: server,
    wiki_pureJsTarget: "quickjs",
  });
  const out: Record<string, unknown> = {};
  for (const tool of TOOLS) {
    const result = await session.call(tool, {});
    out[tool] = result.variant === "Success" ? result.structuredContent : result;
  }
  const pids = session.pids();
  await session.close();
  expect(pids.filter(processAlive)).toEqual([]);
  return out;
}

/** Both agents, compared with each other; the (common) host answers. */
async function parity(flags: SessionFlags): Promise<Record<string, unknown>> {
  const [host, device] = await Promise.all([answers("host", flags), answers("on-device", flags)]);
  expect(device).toEqual(host);
  return host;
}

/** What the three forms that report every field answer, for `target`. */
const everyField = (target: Record<string, unknown>) => ({
  wiki_perFileTarget: { form: "per-file", ...target },
  wiki_fromMetaTarget: { form: "fromMeta", ...target },
  wiki_runFormTarget: { form: "run", ...target },
});

describe("ctx.target in every authoring form, the same with both agents", () => {
  test("android: the declared app ids, the one the session resolved (the first), and the display name", async () => {
    const got = await parity({ driver: "android-ondevice-accessibility" });
    expect(got).toEqual({
      ...everyField({
        id: "wiki",
        displayName: "Wiki (target context)",
        appIds: ["org.wikipedia.dev", "org.wikipedia"],
        appId: "org.wikipedia.dev",
        baseUrls: null,
        resolvedBaseUrl: null,
        resolveAppId: "org.wikipedia.dev",
        resolveAppIdWithDefault: "org.wikipedia.dev",
        destructuredResolveAppId: "org.wikipedia.dev",
        resolveBaseUrlWithDefault: "https://fallback.example",
      }),
      wiki_pureJsTarget: {
        form: "pure-js",
        appId: "org.wikipedia.dev",
        destructured: "org.wikipedia.dev",
        baseUrl: "https://fallback.example",
      },
    });
  }, 90_000); // the first session builds every bundle

  test("ios, where the target declares no app id: resolveAppId() is undefined, the caller's default wins", async () => {
    const got = await parity({ driver: "ios-host" });
    expect(got).toEqual({
      ...everyField({
        id: "wiki",
        displayName: "Wiki (target context)",
        appIds: [],
        appId: null,
        baseUrls: null,
        resolvedBaseUrl: null,
        resolveAppId: null,
        resolveAppIdWithDefault: "org.example.fallback",
        destructuredResolveAppId: "org.example.fallback",
        resolveBaseUrlWithDefault: "https://fallback.example",
      }),
      wiki_pureJsTarget: { form: "pure-js", appId: "org.example.fallback", destructured: null, baseUrl: "https://fallback.example" },
    });
  }, 60_000);

  test("web (simulated page): the platform's base_url is the envelope's baseUrls and resolved base URL, which resolveBaseUrl prefers to the caller's default", async () => {
    const got = await parity({ driver: "playwright-native", browser: "none" });
    const url = "https://wiki.example.test/";
    expect(got.wiki_fromMetaTarget).toMatchObject({
      appIds: [],
      appId: null,
      baseUrls: [url],
      resolvedBaseUrl: url,
      resolveBaseUrlWithDefault: url,
    });
  }, 60_000);
});
