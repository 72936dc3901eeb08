import { describe, expect, test } from "bun:test";
import { ReportFileError } from "../errors.ts";
import { fieldPath, parseReport, REPORT_FORMAT } from "./report-schema.ts";
import { runToJson } from "./reporters/json.ts";
import type { RunReport } from "./run-types.ts";

/** A report with every optional field the JSON reporter writes. */
const full: RunReport = {
  trails: [
    {
      file: "trails/a.trail.yaml",
      id: "a",
      title: "A",
      tags: ["smoke"],
      status: "failed",
      startedAt: "2026-11-25T06:00:00.000Z",
      durationMs: 12.5,
      unverified: 1,
      session: { id: "s", target: "app", driver: "playwright-native", platform: "web", agent: "host", deviceKey: "web", logsDir: "logs/s" },
      steps: [
        {
          index: 1,
          kind: "trailhead",
          title: "Open",
          status: "unverified",
          durationMs: 3,
          tools: [
            {
              name: "web_open",
              args: { url: "/" },
              result: { status: "success", variant: "Success", message: "ok", structuredContent: { a: [1] }, unverified: "no screen" },
              startedAt: "2026-11-25T06:00:00.001Z",
              durationMs: 1,
            },
          ],
          unverified: "no screen",
          memory: { set: { k: "***" }, deleted: ["old"] },
          screen: { kind: "web", url: "https://x.example/", title: "X", outline: "- heading", screenshot: "data:image/png;base64,AA==" },
          line: 3,
          col: 5,
        },
        {
          index: 2,
          kind: "verify",
          title: "Check",
          status: "failed",
          durationMs: 1,
          tools: [],
          failure: {
            tool: "assertWaypoint",
            args: { waypoint: "w" },
            variant: "ExceptionThrown",
            message: "no",
            line: 7,
            col: 9,
            stderr: { source: "tools/t.ts", lines: ["boom"] },
          },
          screen: {
            kind: "capture",
            screen: "0123456789ab",
            waypoint: "app/home",
            matched: [2],
            moves: [{ from: "a", to: "b", shortcut: "aToB" }],
            after: "ba9876543210",
            afterMatched: [1],
            expected: {
              kind: "waypoint",
              waypoint: "w",
              screen: "0123456789ab",
              actual: "ba9876543210",
              conditions: [
                { role: "required", description: "Title", ok: false, actual: [], expected: [2] },
                { role: "forbidden", description: "Bar", ok: false, actual: [1], expected: [] },
              ],
            },
          },
          line: 6,
          col: 5,
        },
        { index: 3, kind: "step", title: "Then", status: "skipped", durationMs: 0, tools: [], line: 9, col: 5 },
      ],
      error: "step 2 failed: no",
      memory: { k: "***" },
      ran: true,
    },
    {
      file: "trails/b.trail.yaml",
      id: "b",
      status: "error",
      startedAt: "2026-11-25T06:00:00.000Z",
      durationMs: 0,
      unverified: 0,
      steps: [],
      error: "unknown tool",
      problems: [
        { message: "unknown tool x", file: "trails/b.trail.yaml", line: 4, col: 9, step: 1, stepTitle: "Seed", tool: "x", kind: "tool" },
      ],
      ran: false,
    },
    {
      file: "trails/c.trail.yaml",
      id: "c",
      status: "skipped",
      startedAt: "2026-11-25T06:00:00.000Z",
      durationMs: 0,
      unverified: 0,
      steps: [],
      skipReason: "later",
      ran: false,
    },
  ],
  summary: { passed: 0, failed: 1, errors: 1, skipped: 1, unverified: 1, durationMs: 40 },
  screens: {
    "0123456789ab": {
      file: "s.json",
      width: 1080,
      height: 2400,
      waypoint: "app/home",
      nodes: [
        { id: 1, bounds: [0, 0, 1080, 2400], type: "Frame" },
        { id: 2, parent: 1, bounds: [0, 0, 10.5, 20], text: "Hi", interactive: true },
      ],
      screenshot: "data:image/webp;base64,UklGRgQAAABXRUJQ",
    },
    ba9876543210: {
      file: "t.json",
      width: 1080,
      height: 2400,
      nodes: [{ id: 1 }],
      screenshotNote: "screenshot t.example.webp left out: 900 KB is over the 512 KB that a page embeds; the wireframe is shown instead",
    },
  },
  problems: [{ message: "m", file: "f", line: 1, col: 2 }],
  interrupted: "SIGINT",
  shard: { index: 2, total: 3 },
};

/** The message parseReport refuses `json` with. */
function refusal(json: unknown): string {
  try {
    parseReport("r.json", json);
  } catch (error) {
    expect(error).toBeInstanceOf(ReportFileError);
    expect((error as ReportFileError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error("accepted");
}

describe("the JSON report format", () => {
  test("what the JSON reporter writes reads back as the same run: every field is in the schema", () => {
    const json = JSON.parse(JSON.stringify(runToJson(full)));
    expect(json.version).toBe(REPORT_FORMAT);
    expect(parseReport("r.json", json)).toEqual(full);
  });

  test("a field the format does not know is dropped; a report without a version reads as format 1", () => {
    const { version: _, ...json } = JSON.parse(JSON.stringify(runToJson(full)));
    json.trails[0].extra = "<b>";
    expect(parseReport("r.json", json)).toEqual(full);
  });

  test("refusals name the file, the field, what was expected and what was there", () => {
    const json = () => JSON.parse(JSON.stringify(runToJson(full)));
    expect(refusal({ ...json(), version: 7 })).toBe(
      "r.json: written by a newer trailblaze-ts (format 7, this one reads up to 1): upgrade trailblaze-ts to merge it",
    );
    expect(refusal([])).toBe("r.json: expected a report written by `trailblaze run --reporter json` ({trails: […], summary: {…}})");
    const bad = json();
    bad.trails[0].steps[1].screen.moves[0].to = 5;
    expect(refusal(bad)).toBe("r.json: trails[0].steps[1].screen.moves[0].to: expected a string, got 5");
    const worse = json();
    worse.trails[0].steps[0].screen.kind = "pdf";
    worse.trails[1].problems[0].kind = "x";
    worse.screens["0123456789ab"].nodes[1].interactive = false;
    worse.screens["0123456789ab"].nodes[1].bounds = [1, 2, 3];
    expect(refusal(worse)).toBe(`r.json: 4 fields do not fit the JSON report format:
  trails[0].steps[0].screen.kind: expected one of capture, web, got "pdf"
  trails[1].problems[0].kind: expected one of tool, args, got "x"
  screens["0123456789ab"].nodes[1].bounds: expected at least 4 items, got 3
  screens["0123456789ab"].nodes[1].interactive: expected true, got false`);
  });

  test("a screenshot is a WebP, PNG or JPEG base64 data: URL of at most 512 KB, and nothing else", () => {
    const withShot = (screenshot: unknown) => {
      const json = JSON.parse(JSON.stringify(runToJson(full)));
      json.screens["0123456789ab"].screenshot = screenshot;
      return refusal(json);
    };
    const at = `r.json: screens["0123456789ab"].screenshot`;
    expect(withShot("javascript:alert(1)")).toBe(`${at}: expected a data:image/webp, png or jpeg;base64 URL, got "javascript:alert(1)"`);
    expect(withShot("data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==")).toBe(
      `${at}: expected a data:image/webp, png or jpeg;base64 URL, got "data:text/html;base64,PHNjcmlwdD5hbGVydC…"`,
    );
    expect(withShot("data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+")).toBe(
      `${at}: expected a data:image/webp, png or jpeg;base64 URL, got "data:image/svg+xml;base64,PHN2ZyBvbmxvYW…"`,
    );
    expect(withShot(`data:image/png;base64,AA"><script>alert(1)</script>`)).toBe(
      `${at}: expected a data:image/webp, png or jpeg;base64 URL, got "data:image/png;base64,AA\\"><script>alert(…"`,
    );
    expect(withShot(`data:image/png;base64,${"A".repeat(800_000)}`)).toBe(
      `${at}: expected a screenshot of at most 512 KB, got a string of 800022 characters`,
    );
    expect(withShot({ src: "x" })).toBe(`${at}: expected a string, got an object`);
  });

  test("field paths: indexes in brackets, words after dots, any other key quoted", () => {
    expect(fieldPath(["trails", 0, "steps", 2, "screen", "matched", 0])).toBe("trails[0].steps[2].screen.matched[0]");
    expect(fieldPath(["screens", `"><b>`, "width"])).toBe(`screens["\\"><b>"].width`);
    expect(fieldPath([])).toBe("(the document)");
  });
});
