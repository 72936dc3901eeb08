// The compile-time half of the authoring package: fixtures/scripting/types/authoring-errors.ts
// marks every line that must not compile with `@ts-expect-error TSnnnn`. The root typecheck proves
// each directive is needed; this test proves each one catches the intended error, by compiling a
// copy without the directives and comparing tsc's errors line by line.

import { describe, expect, test } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, tempDir } from "./support/cli.ts";

const SOURCE = join(REPO, "fixtures/scripting/types/authoring-errors.ts");
const DIRECTIVE = /^\s*\/\/ @ts-expect-error (TS\d+) (.+)$/;

interface Expected {
  line: number;
  code: string;
  why: string;
}

function expectations(lines: string[]): Expected[] {
  const found: Expected[] = [];
  lines.forEach((text, index) => {
    const match = DIRECTIVE.exec(text);
    if (match) found.push({ line: index + 2, code: match[1]!, why: match[2]! });
  });
  return found;
}

async function compile(dir: string, file: string): Promise<string> {
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ extends: join(REPO, "tsconfig.json"), include: [file], compilerOptions: { types: ["bun"] } }),
  );
  const child = Bun.spawn([join(REPO, "node_modules/.bin/tsc"), "--noEmit", "-p", join(dir, "tsconfig.json"), "--pretty", "false"], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return stdout + stderr;
}

describe("authoring mistakes are compile errors", () => {
  test("every @ts-expect-error line fails with exactly the error code it names, and nothing else fails", async () => {
    const lines = readFileSync(SOURCE, "utf8").split("\n");
    const expected = expectations(lines);
    expect(expected.length).toBeGreaterThanOrEqual(18);
    expect(lines.filter((line) => /^\s*\/\/ @ts-expect-error/.test(line)).length).toBe(expected.length);

    const dir = tempDir("scripting-types");
    symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
    const stripped = lines.map((line) => (DIRECTIVE.test(line) ? line.replace("@ts-expect-error", "(expected error)") : line));
    writeFileSync(join(dir, "authoring-errors.ts"), stripped.join("\n"));

    const output = await compile(dir, "authoring-errors.ts");
    const errors = [...output.matchAll(/^authoring-errors\.ts\((\d+),\d+\): error (TS\d+):/gm)].map((m) => ({
      line: Number(m[1]),
      code: m[2]!,
    }));
    const unexpected = output.split("\n").filter((line) => line.includes("error TS") && !line.startsWith("authoring-errors.ts("));
    expect(unexpected).toEqual([]);
    const byLine = (list: { line: number; code: string }[]) => [...new Set(list.map((e) => `${e.line} ${e.code}`))].sort();
    expect(byLine(errors)).toEqual(byLine(expected));
  });

  test("the file as committed compiles (each directive is needed)", async () => {
    const dir = tempDir("scripting-types-clean");
    symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
    writeFileSync(join(dir, "authoring-errors.ts"), readFileSync(SOURCE, "utf8"));
    expect(await compile(dir, "authoring-errors.ts")).toBe("");
  });
});
