// A web target's tool listing does not depend on the browser: `tools --json` lists the same tools
// (names, descriptions, input schemas, _meta, toolsets) for a session on the simulated page
// (--browser none) as for one on a real Chromium (--browser chromium), since each web_* tool is
// defined once (src/builtins/web-tool-definitions.ts) whichever backend runs it. Listing never
// starts the browser, but --browser chromium needs one to be found.

import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { withoutChromium } from "./support/chromium.ts";
import { cli, REPO } from "./support/cli.ts";

const FIXTURE = join(REPO, "fixtures/web");
// Generous: the first listing bundles the fixture's MCP server on a shared machine.
setDefaultTimeout(120_000);

const noChromium = withoutChromium();

async function listing(browser: "none" | "chromium"): Promise<Record<string, unknown>> {
  const run = await cli(["tools", "--json", "--browser", browser], { cwd: FIXTURE });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(run.stdout);
}

describe.skipIf(noChromium)("tools --json on a web target", () => {
  test("lists the same tools on the simulated page and on a real browser", async () => {
    const simulated = await listing("none");
    const real = await listing("chromium");
    const builtins = (doc: Record<string, unknown>) =>
      (doc.tools as { source: string; name: string }[]).filter((t) => t.source === "builtin" && t.name.startsWith("web_"));
    expect(builtins(simulated).length).toBe(22);
    expect({ tools: real.tools, skipped: real.skipped, toolsets: real.toolsets }).toEqual({
      tools: simulated.tools,
      skipped: simulated.skipped,
      toolsets: simulated.toolsets,
    });
  });
});
