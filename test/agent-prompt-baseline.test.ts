// The composed request the built-in agent sends, pinned as upstream pins its composed prompts
// (trailblaze-host's baselines/composed_*_prompt.txt): one android step on the calendar map and one
// web step on a real page, each as the local model server received it (system text, user text,
// image, every tool offered with its schema), in test/baselines/. A change to what the model sees
// fails here until the baseline is updated with the change, so it is a reviewed diff:
// UPDATE_BASELINES=1 bun test test/agent-prompt-baseline.test.ts rewrites them.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentEnv, agentWorkspace, CALENDAR_MAP } from "./support/agent-workspace.ts";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { call, startLlmServer, type LlmServer, type SeenRequest } from "./support/llm-server.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

const BASELINES = join(REPO, "test/baselines");
const UPDATE = ["1", "true"].includes(process.env.UPDATE_BASELINES ?? "");

let server: LlmServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const done = call("objectiveStatus", { status: "COMPLETED", explanation: "done" });

interface WireMessage {
  role: string;
  content: string | { type: string; text?: string; image_url?: { url: string } }[];
}
interface WireTool {
  function: { name: string; description: string; parameters: unknown };
}

/** A request as the model got it, readable: its system and user texts, its image, its tools; `dir` (a temp folder) as <workspace>. */
function composed(request: SeenRequest, dir: string): string {
  const messages = request.body.messages as WireMessage[];
  const parts = (m: WireMessage) => (typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content);
  const texts = (role: string) =>
    messages
      .filter((m) => m.role === role)
      .flatMap(parts)
      .filter((p) => p.type === "text")
      .map((p) => p.text)
      .join("\n");
  const images = messages.flatMap(parts).filter((p) => p.type === "image_url");
  const tools = (request.body.tools as WireTool[]).map(
    (t) => `- ${t.function.name}: ${t.function.description}\n  ${JSON.stringify(t.function.parameters)}`,
  );
  const text = [
    "=== system",
    texts("system"),
    "=== user",
    texts("user"),
    "=== images",
    images.length === 0 ? "(none)" : images.map((p) => p.image_url!.url.replace(/^(data:[^;]+;base64,).*$/, "$1…")).join("\n"),
    `=== tools (${tools.length}), tool_choice ${JSON.stringify(request.body.tool_choice)}`,
    ...tools,
    "",
  ].join("\n");
  return text.replaceAll(dir, "<workspace>");
}

function matchesBaseline(name: string, actual: string): void {
  const file = join(BASELINES, name);
  if (UPDATE) {
    mkdirSync(BASELINES, { recursive: true });
    writeFileSync(file, actual);
  }
  const expected = readFileSync(file, "utf8");
  if (actual !== expected)
    console.error(
      `${name} differs from the request composed now; if the change is meant, run: UPDATE_BASELINES=1 bun test ${import.meta.file}`,
    );
  expect(actual).toBe(expected);
}

describe("the composed request (test/baselines/)", () => {
  test("an android step: the device, the trail's context, what came before, memory, the last status, stuck detection, the guidance for a conditional multi-step objective, the outline with refs", async () => {
    server = startLlmServer([
      call("objectiveStatus", { status: "IN_PROGRESS", explanation: "looking for a dialog" }),
      call("tap", { ref: "n99", reasoning: "the dialog's close button" }),
      call("tap", { ref: "n99", reasoning: "the dialog's close button, again" }),
      call("tap", { ref: "n7", reasoning: "Settings" }),
      done,
    ]);
    const dir = agentWorkspace("baseline-android", server);
    writeFileSync(
      join(dir, "trails/calendar/baseline.trail.yaml"),
      [
        "config:",
        "  id: baseline",
        "  target: calendar",
        "  context: |",
        "    The calendar app shows one day at a time. Settings are in the navigation drawer.",
        "trail:",
        "  - step: Open the navigation drawer",
        "    recording:",
        "      android:",
        "        - tapOnElementBySelector:",
        "            nodeSelector:",
        "              androidAccessibility:",
        "                contentDescriptionRegex: Open the calendar drawer",
        "  - step: If a dialog is shown, close it, and then open Settings",
        "",
      ].join("\n"),
    );
    const { code, stderr } = await cli(
      [
        "run",
        "trails/calendar/baseline.trail.yaml",
        ...CALENDAR_MAP,
        "--memory",
        "account=ada@example.com",
        "--memory",
        'note=two lines\nand a "quote"',
        "--secret",
        "calendarPassword=hunter2-baseline",
        "--no-logging",
        "--no-save-recording",
      ],
      { cwd: dir, env: agentEnv() },
    );
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(5);
    // The fourth request: after an IN_PROGRESS and the same failing tap twice.
    const request = composed(server.requests[3]!, dir);
    expect(request).toContain("You may be stuck");
    expect(request).not.toContain("hunter2-baseline");
    matchesBaseline("composed_android_request.txt", request);
    // docs/agent.md shows this request's user text as it is.
    const user = request.slice(request.indexOf("=== user\n") + "=== user\n".length, request.indexOf("\n=== images"));
    expect(readFileSync(join(REPO, "docs/agent.md"), "utf8")).toContain(`\`\`\`text\n${user}\n\`\`\``);
  });

  test("a web step on a real page: the browser, the page's elements with their refs, the web tools", async () => {
    server = startLlmServer([done]);
    const dir = workspaceCopy(join(REPO, "fixtures/web"), "agent-baseline-web");
    writeFileSync(
      join(dir, "trails/baseline.trail.yaml"),
      [
        "config:",
        "  id: baseline-web",
        "  target: webshop",
        "  context: The shop sells one product; its basket counts the items added.",
        "trail:",
        "  - step: Open the shop",
        "    recording:",
        "      web:",
        "        - web_navigate: { url: ../pages/shop.html }",
        "  - step: Add one item to the basket",
        "",
      ].join("\n"),
    );
    const home = tempDir("agent-baseline-web-home");
    mkdirSync(join(home, ".trailblaze"));
    writeFileSync(
      join(home, ".trailblaze/trailblaze.yaml"),
      `llm:\n  providers:\n    openai:\n      base_url: ${server.url}/v1\n      models:\n        - id: gpt-test\n          vision: false\n  defaults:\n    model: openai/gpt-test\n`,
    );
    const { code, stderr } = await cli(["run", "trails/baseline.trail.yaml", "--no-logging", "--no-save-recording"], {
      cwd: dir,
      env: { HOME: home, OPENAI_API_KEY: "sk-baseline" },
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(server.requests).toHaveLength(1);
    matchesBaseline("composed_web_request.txt", composed(server.requests[0]!, dir));
  }, 120_000);
});
