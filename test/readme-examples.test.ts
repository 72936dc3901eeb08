// docs/writing-tools.md is executable: every code block is a file under fixtures/scripting/examples
// or fixtures/per-file (byte for byte), every `$ npx trailblaze …` transcript is replayed with its
// output compared, and the example trail passes in both agent modes (each example tool's results in
// both modes: readme-example-tools.test.ts).

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { copyFixture } from "./support/workspace-copy.ts";

const EXAMPLES = join(REPO, "fixtures/scripting/examples");
const logs = tempDir("readme-logs");

function section(): string {
  return readFileSync(join(REPO, "docs/writing-tools.md"), "utf8");
}

interface Block {
  lang: string;
  body: string;
  /** From a `<!-- file: path -->` line right above the fence. */
  file?: string;
}

function blocks(text: string): Block[] {
  const found: Block[] = [];
  for (const match of text.matchAll(/(?:<!-- file: (\S+) -->\n)?```(\w*)\n([\s\S]*?)\n```/g)) {
    found.push({ lang: match[2]!, body: `${match[3]!}\n`, ...(match[1] ? { file: match[1] } : {}) });
  }
  return found;
}

/** Splits a shell command line: words, '…' and "…" quoting (enough for the docs). */
function shellWords(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** Timings and the generated logs folder vary between runs. */
function normalize(output: string): string {
  return output
    .replace(/\(\d+(\.\d+)? m?s\)/g, "(TIME)")
    .replace(/ in \d+(\.\d+)? m?s\b/g, " in TIME")
    .replace(/ logs \S+/g, " logs DIR");
}

describe("docs/writing-tools.md", () => {
  test("every ts/yaml block is a file under fixtures/scripting/examples or fixtures/per-file, byte for byte", () => {
    const code = blocks(section()).filter((b) => b.lang === "ts" || b.lang === "yaml");
    expect(code.length).toBe(12);
    for (const block of code) {
      expect(block.file).toMatch(/^fixtures\/(scripting\/examples|per-file)\//);
      expect({ file: block.file, body: block.body }).toEqual({ file: block.file, body: readFileSync(join(REPO, block.file!), "utf8") });
    }
    expect(blocks(section()).every((b) => ["ts", "yaml", "sh"].includes(b.lang))).toBe(true);
  });

  test("every `$ npx trailblaze` transcript prints what the page shows", async () => {
    const transcripts = blocks(section())
      .filter((b) => b.lang === "sh" && b.body.startsWith("$ "))
      .flatMap((b) => b.body.split(/^\$ /m).filter(Boolean))
      .map((chunk) => {
        const [command, ...output] = chunk.split("\n");
        return { command: command!, output: output.join("\n") };
      });
    expect(transcripts.length).toBe(5);
    for (const { command, output } of transcripts) {
      const [npx, trailblaze, ...argv] = shellWords(command);
      expect([npx, trailblaze]).toEqual(["npx", "trailblaze"]);
      const run = await cli([...argv, "--logs", logs], { cwd: EXAMPLES });
      expect({ command, stdout: normalize(run.stdout), stderr: run.stderr }).toEqual({ command, stdout: normalize(output), stderr: "" });
    }
  });

  test("each init-tool command creates the files the page names", async () => {
    const commands = blocks(section())
      .filter((b) => b.lang === "sh" && b.body.includes("init-tool"))
      .map((b) => b.body.trim());
    expect(commands).toEqual([
      "npx trailblaze init-tool applyCoupon --target myapp",
      "npx trailblaze init-tool applyCoupon --target myapp --server",
    ]);
    const named = {
      perFile: ["tools/myapp/myapp_applyCoupon.ts", "tools/myapp/myapp_applyCoupon.test.ts"],
      server: ["tools/myapp/applyCoupon.ts", "tools/myapp/applyCoupon.test.ts", "trailblaze-config/toolsets/myapp_applyCoupon.yaml"],
    };
    for (const [command, files, listed] of [
      [commands[0]!, named.perFile, "tools:\n  - myapp_applyCoupon\n"],
      [commands[1]!, named.server, "- script: ./tools/myapp/applyCoupon.ts"],
    ] as const) {
      const ws = join(tempDir("readme-init"), "ws");
      copyFixture(EXAMPLES, ws);
      symlinkSync(join(REPO, "node_modules"), join(ws, "node_modules"));
      const run = await cli(shellWords(command).slice(2), { cwd: ws });
      expect({ command, code: run.code, stderr: run.stderr }).toEqual({ command, code: 0, stderr: "" });
      for (const file of files) {
        expect(section()).toContain(`\`${file}\``);
        expect(existsSync(join(ws, file))).toBe(true);
      }
      expect(readFileSync(join(ws, "trailblaze-config/targets/myapp.yaml"), "utf8")).toContain(listed);
    }
  });
});

describe("the example tools", () => {
  test("the example trail passes in both modes", async () => {
    for (const agent of ["host", "on-device"]) {
      const run = await cli(["run", "trails/signup.trail.yaml", "--agent", agent, "--logs", logs], { cwd: EXAMPLES });
      expect({ agent, code: run.code, summary: run.stdout.trim().split("\n").at(-1) }).toEqual({
        agent,
        code: 0,
        summary: expect.stringMatching(/^1 passed, 0 failed \(1 trail\) in [\d.]+ m?s$/),
      });
    }
  });
});
