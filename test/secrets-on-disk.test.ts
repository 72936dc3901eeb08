// A secret never reaches disk, however a run ends: a server that prints it to stderr (host) or
// its console (on-device) and sends it as an MCP log message, then hangs, is killed with the CLI
// (SIGKILL, so nothing runs after); every file the session wrote holds only the masked value.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const SECRET = "s3cr3t-hunter2-token";

/** A workspace inside the repository (so its server resolves the SDK) whose one tool leaks what it is given. */
const workspaces: string[] = [];
afterAll(() => workspaces.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function leakyWorkspace(): string {
  mkdirSync(join(REPO, ".cache"), { recursive: true });
  const root = mkdtempSync(join(REPO, ".cache", "secrets-"));
  workspaces.push(root);
  mkdirSync(join(root, "tools"), { recursive: true });
  mkdirSync(join(root, "trailblaze-config/targets"), { recursive: true });
  mkdirSync(join(root, "trails"), { recursive: true });
  writeFileSync(join(root, "trailblaze-config/targets/leak.yaml"), "id: leak\nmcp_servers:\n  - script: ./tools/leak.ts\n");
  writeFileSync(
    join(root, "tools/leak.ts"),
    `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import * as z from "zod";

const server = new McpServer({ name: "leak", version: "1.0.0" }, { capabilities: { logging: {} } });
server.registerTool("leak_echo", { inputSchema: { text: z.string() } }, async ({ text }) => {
  console.error(\`printed \${text}\`);
  await server.sendLoggingMessage({ level: "info", data: \`logged \${text}\` });
  await new Promise((resolve) => setTimeout(resolve, 60_000));
  return { content: [{ type: "text", text: "never" }] };
});
await server.connect(new StdioServerTransport());
`,
  );
  writeFileSync(
    join(root, "trails/leak.trail.yaml"),
    'config:\n  id: leak\ntrail:\n  - step: Leak the token\n    recording:\n      tools:\n        - leak_echo: { text: "token {{apiToken}}" }\n',
  );
  return root;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("a run killed while its server holds a secret", () => {
  for (const agent of ["host", "on-device"] as const) {
    test(`${agent}: every log file masks it as written (--secret KEY from the environment)`, async () => {
      const root = leakyWorkspace();
      const logs = tempDir("secrets-logs");
      const child = Bun.spawn(
        [
          process.execPath,
          "--no-install",
          join(REPO, "src/cli/main.ts"),
          "run",
          "trails",
          "--agent",
          agent,
          "--secret",
          "apiToken",
          "--logs",
          logs,
        ],
        { cwd: root, env: { ...process.env, PATH: TEST_PATH, apiToken: SECRET }, stdout: "pipe", stderr: "pipe" },
      );
      // Wait until both the printed and the logged line are on disk, then kill the CLI outright.
      const written = () =>
        filesUnder(logs)
          .map((file) => readFileSync(file, "utf8"))
          .join("\n");
      const deadline = Date.now() + 60_000;
      while (!(written().includes("printed token") && written().includes("logged token")) && Date.now() < deadline) await Bun.sleep(50);
      child.kill("SIGKILL");
      await child.exited;
      const files = filesUnder(logs);
      expect(written()).toContain("printed token ***");
      expect(written()).toContain("logged token ***");
      for (const file of files) expect({ file, leaked: readFileSync(file, "utf8").includes(SECRET) }).toEqual({ file, leaked: false });
    }, 90_000);
  }

  test("--secret KEY with KEY unset is a usage error that says what to do", async () => {
    const root = leakyWorkspace();
    const child = Bun.spawn([process.execPath, "--no-install", join(REPO, "src/cli/main.ts"), "run", "trails", "--secret", "apiToken"], {
      cwd: root,
      env: { ...process.env, PATH: TEST_PATH, apiToken: undefined },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    expect(code).toBe(2);
    expect(stderr).toContain("run: --secret apiToken: give KEY=VALUE, or KEY alone to read the environment variable KEY, which is not set");
  });
});
