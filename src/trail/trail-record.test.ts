import { describe, expect, test } from "bun:test";
import { parseTrailFile } from "./trail-file.ts";
import { recordedTrailText, spliceRecording, type CallToRecord } from "./trail-record.ts";

const tap = { tool: "tapOnElementWithText", args: { text: "Settings" } };

/** Splices `calls` into step `index` (0-based, trailhead first) and checks the result parses with that recording. */
function fill(text: string, index: number, calls: CallToRecord[] = [tap]): string {
  const edited = spliceRecording(text, "t.trail.yaml", parseTrailFile("t.trail.yaml", text).steps[index]!, calls);
  const step = parseTrailFile("t.trail.yaml", edited).steps[index]!;
  expect(step.recordings.tools!.map(({ tool, args }) => ({ tool, args }))).toEqual(calls);
  return edited;
}

describe("spliceRecording", () => {
  test("a block step without recording: the recording goes under its last entry, every other byte kept", () => {
    const text =
      "# top\ntrail:\n  - step: Open it   # first\n  # between\n  - step: |\n      Two\n      lines\n  - verify: Done\n    maxRetries: 2\n";
    expect(fill(text, 0)).toBe(
      "# top\ntrail:\n  - step: Open it   # first\n    recording:\n      tools:\n        - tapOnElementWithText:\n            text: Settings\n  # between\n  - step: |\n      Two\n      lines\n  - verify: Done\n    maxRetries: 2\n",
    );
    expect(fill(text, 1)).toBe(
      "# top\ntrail:\n  - step: Open it   # first\n  # between\n  - step: |\n      Two\n      lines\n    recording:\n      tools:\n        - tapOnElementWithText:\n            text: Settings\n  - verify: Done\n    maxRetries: 2\n",
    );
    expect(fill(text, 2)).toEndWith(
      "  - verify: Done\n    maxRetries: 2\n    recording:\n      tools:\n        - tapOnElementWithText:\n            text: Settings\n",
    );
  });

  test("beside another platform's recording, as a tools: key of the same map", () => {
    const text = "trail:\n  - step: Open it\n    recording:\n      ios:\n        - tapOn: { text: Open }   # ios only\n";
    expect(fill(text, 0, [{ tool: "pressBack", args: {} }])).toBe(
      "trail:\n  - step: Open it\n    recording:\n      ios:\n        - tapOn: { text: Open }   # ios only\n      tools:\n        - pressBack: {}\n",
    );
  });

  test("a trailhead map and the older list form's prompts", () => {
    expect(fill("trailhead:\n  step: Launch\ntrail:\n  - step: Next\n", 0)).toStartWith(
      "trailhead:\n  step: Launch\n  recording:\n    tools:\n      - tapOnElementWithText:\n          text: Settings\ntrail:\n",
    );
    expect(fill("- config:\n    id: x\n- prompts:\n    - step: First\n    - step: Second\n", 1)).toBe(
      "- config:\n    id: x\n- prompts:\n    - step: First\n    - step: Second\n      recording:\n        tools:\n          - tapOnElementWithText:\n              text: Settings\n",
    );
  });

  test("a flow-style step goes through the Document API: comments elsewhere stay", () => {
    const edited = fill("# keep me\ntrail:\n  - { step: Open it }\n  - step: Next   # and me\n", 0);
    expect(edited).toContain("# keep me\n");
    expect(edited).toContain("# and me");
  });
});

describe("recordedTrailText", () => {
  test("config with id and target, header comments, step or verify, and no recording for a step with no calls", () => {
    const text = recordedTrailText({ id: "walk", target: "myapp", header: ["one", "two"] }, [
      { text: "Open it", calls: [tap] },
      { text: "It shows", verify: true, calls: [] },
    ]);
    expect(text).toBe(
      "# one\n# two\nconfig:\n  id: walk\n  target: myapp\ntrail:\n  - step: Open it\n    recording:\n      tools:\n        - tapOnElementWithText:\n            text: Settings\n  - verify: It shows\n",
    );
    expect(parseTrailFile("walk.trail.yaml", text).steps.map((s) => [s.kind, s.title, Object.keys(s.recordings)])).toEqual([
      ["step", "Open it", ["tools"]],
      ["verify", "It shows", []],
    ]);
  });
});
