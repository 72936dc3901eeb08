// Upstream's YAML-composed tools (`<id>.tool.yaml` with `tools:`) in a trailmap's tools folder, on
// fixtures/composed-tools: the schema its parameters give, a trail calling it with both agents
// (its nested rememberValue reaches session memory), and a JVM `.tool.yaml` refused where listed.

import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { copyFixture } from "./support/workspace-copy.ts";

const FIXTURE = join(REPO, "fixtures/composed-tools");
const logs = tempDir("composed-logs");
const TRAILMAP = "trails/config/trailmaps/notes/trailmap.yaml";

describe("a composed tool", () => {
  test("is registered with the input schema its parameters declare, and its description", async () => {
    const run = await cli(["tools", "--json", "--logs", logs], { cwd: FIXTURE });
    expect(run.code).toBe(0);
    const tool = JSON.parse(run.stdout).tools.find((t: { name: string }) => t.name === "notes_saveNote");
    expect(tool).toMatchObject({
      description: "Clears the focused field, types a note into it and remembers the note as lastNote.",
      inputSchema: {
        type: "object",
        properties: {
          text: { type: "string", description: "The note." },
          erase: { type: "integer", description: "How many characters to erase first; all of them when left out." },
          prefix: { type: "string", default: "Note: " },
        },
        required: ["text"],
      },
    });
  });

  for (const agent of ["host", "on-device"]) {
    test(`runs its calls in order in a trail (${agent}), and what they remember stays in the session`, async () => {
      const run = await cli(["run", "trails", "--agent", agent, "--logs", logs], { cwd: FIXTURE });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("↳ notes_saveNote: ran eraseText, inputText, rememberValue\n");
      expect(run.stdout).toContain('↳ assertEquals: "buy milk" equals "buy milk"\n');
    });
  }

  test("a call without a required argument fails before any call is made", async () => {
    const run = await cli(["call", "notes_saveNote", "--args", '{"erase":2}', "--logs", logs], { cwd: FIXTURE });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("notes_saveNote: invalid arguments:");
    expect(run.stdout).toContain("at text");
  });
});

test("a JVM tool (class:) listed in a target is a located error naming its file and class", async () => {
  const ws = join(tempDir("composed-jvm"), "ws");
  copyFixture(FIXTURE, ws);
  const trailmap = join(ws, TRAILMAP);
  writeFileSync(trailmap, readFileSync(trailmap, "utf8").replace("    - notes_saveNote ", "    - notes_openNative\n    - notes_saveNote "));
  const run = await cli(["check", "--logs", logs], { cwd: ws });
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr).toContain(
    `${TRAILMAP}:5:7 tools: tool notes_openNative (trails/config/trailmaps/notes/tools/notes_openNative.tool.yaml:2:5) is a JVM tool ` +
      "(class: com.example.notes.tools.OpenNativeTool), which this runtime cannot run; write it as a per-file tool " +
      "(export const notes_openNative = trailblaze.tool(…)) or compose it from other tools with a tools: list",
  );
});

test("a .tool.yaml with neither tools: nor class: is a located error", async () => {
  const ws = join(tempDir("composed-empty"), "ws");
  copyFixture(FIXTURE, ws);
  writeFileSync(join(ws, "trails/config/trailmaps/notes/tools/notes_empty.tool.yaml"), "id: notes_empty\ndescription: nothing yet\n");
  const run = await cli(["tools", "--logs", logs], { cwd: ws });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(
    "trails/config/trailmaps/notes/tools/notes_empty.tool.yaml:1:5 id: tool notes_empty has neither tools: (the calls a composed tool makes) nor class:; add a tools: list",
  );
});

test("a failing call fails the composed tool, naming which call, with either agent", async () => {
  const ws = join(tempDir("composed-failing"), "ws");
  copyFixture(FIXTURE, ws);
  writeFileSync(
    join(ws, "trails/config/trailmaps/notes/tools/notes_checkNote.tool.yaml"),
    "id: notes_checkNote\nparameters:\n  - name: text\n    type: string\ntools:\n  - rememberValue: { key: checked, value: '{{params.text}}' }\n  - assertEquals: { actual: '{{params.text}}', expected: saved }\n",
  );
  const trailmap = join(ws, TRAILMAP);
  writeFileSync(trailmap, readFileSync(trailmap, "utf8").replace("    - notes_saveNote ", "    - notes_checkNote\n    - notes_saveNote "));
  for (const agent of ["host", "on-device"]) {
    const run = await cli(["call", "notes_checkNote", "--args", '{"text":"lost"}', "--agent", agent, "--logs", logs], { cwd: ws });
    expect({ agent, code: run.code }).toEqual({ agent, code: 1 });
    expect(run.stdout).toContain("notes_checkNote: call 2 of 2 (assertEquals) failed: ctx.tools.assertEquals: tool failed: ");
  }
});
