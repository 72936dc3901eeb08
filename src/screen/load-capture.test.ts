// Capture loading: the three formats become one screen model; a malformed capture names the file
// and the JSON path of the first bad value.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CaptureError } from "../errors.ts";
import { SCREENS, screenFixture } from "../../test/support/screens.ts";
import { loadCapture, parseCapture } from "./load-capture.ts";
import { describeNode } from "./screen-model.ts";

describe("loadCapture", () => {
  test("a TrailblazeNode tree keeps the capture's node ids, refs and bounds; size comes from the widest bounds", async () => {
    const screen = await screenFixture("android-login.json");
    expect({ format: screen.format, ids: screen.ids, nodes: screen.nodes.length, width: screen.width, height: screen.height }).toEqual({
      format: "trailblazeNode",
      ids: "capture",
      nodes: 16,
      width: 1080,
      height: 800,
    });
    expect(screen.nodes.map((n) => n.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 16, 9, 10, 11, 12, 13, 14, 15]);
    const email = screen.byId.get(4)!;
    expect({ ref: email.ref, depth: email.depth, parent: email.parent?.id, text: describeNode(email) }).toEqual({
      ref: "e4",
      depth: 2,
      parent: 3,
      text: '#4 EditText "Email" id=com.example.myapp:id/email [40,160][1040,240]',
    });
  });

  test("a waypoint capture uses its trailblazeNodeTree, its device size and its waypoint id", async () => {
    const screen = await screenFixture("home.example.json");
    expect({
      format: screen.format,
      waypointId: screen.waypointId,
      width: screen.width,
      height: screen.height,
      ids: screen.nodes.map((n) => n.id),
    }).toEqual({
      format: "waypointCapture",
      waypointId: "demo/android/home",
      width: 1080,
      height: 2400,
      ids: [7, 3, 9],
    });
  });

  test("a legacy view hierarchy: Maestro fields, bounds from x1..y2, a bounds string or centerPoint+dimensions, ids in document order when the capture's are not unique", async () => {
    const screen = await screenFixture("legacy-hierarchy.json");
    expect({ format: screen.format, ids: screen.ids }).toEqual({ format: "viewHierarchy", ids: "document-order" });
    expect(screen.nodes.map(describeNode)).toEqual([
      "#1 FrameLayout [0,0][720,1280]",
      '#2 TextView "Inbox" id=com.example:id/title [20,20][700,90]',
      "#3 ListView id=com.example:id/list [0,100][720,1200]",
      '#4 TextView "Lunch on Friday?" [20,110][700,200]',
      '#5 TextView "Lunch moved" [20,210][700,300]',
      '#6 ImageButton "Compose" [600,1200][700,1270]',
    ]);
    expect(screen.byId.get(6)!.detail).toEqual({
      class: "androidMaestro",
      accessibilityText: "Compose",
      className: "android.widget.ImageButton",
      clickable: true,
      enabled: false,
    });
  });

  test("a legacy view hierarchy with unique nodeIds keeps them (a missing root id is 1)", () => {
    const screen = parseCapture(
      "ids.json",
      JSON.stringify({
        children: [
          { nodeId: 5, text: "A" },
          { nodeId: 9, text: "B" },
        ],
      }),
    );
    expect({ ids: screen.ids, nodes: screen.nodes.map((n) => n.id) }).toEqual({ ids: "capture", nodes: [1, 5, 9] });
  });

  const MALFORMED: [string, string][] = [
    ["bad-bounds.example.json", 'bad-bounds.example.json: $.trailblazeNodeTree.children[2].bounds.left: expected a number, got "x"'],
    [
      "unknown-driver.json",
      'unknown-driver.json: $.driverDetail.class: expected one of "androidAccessibility", "androidMaestro", "iosMaestro", "iosAxe", "web", "compose", got "androidUiAutomator"',
    ],
    [
      "duplicate-ids.json",
      "duplicate-ids.json: $.children[1].nodeId: duplicate nodeId 2 (also at $.children[0]); node ids must be unique within a capture",
    ],
    ["legacy-bad-text.json", "legacy-bad-text.json: $.children[0].text: expected a string, got 42"],
    ["not-json.json", "not-json.json: $: not valid JSON: JSON Parse error: Property name must be a string literal"],
    [
      "not-a-capture.json",
      "not-a-capture.json: $: not a screen capture: expected a TrailblazeNode tree ({nodeId, bounds, driverDetail, children}), " +
        "a view hierarchy ({text, resourceId, className, x1, y1, x2, y2, children}) or a waypoint capture " +
        "({waypointId, deviceWidth, deviceHeight, trailblazeNodeTree, viewHierarchy})",
    ],
    ["missing.json", `missing.json: file not found (looked for ${join(SCREENS, "malformed", "missing.json")})`],
  ];
  for (const [file, message] of MALFORMED) {
    test(`malformed: ${file}`, async () => {
      const error = await loadCapture(join(SCREENS, "malformed", file), file).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CaptureError);
      expect({
        message: (error as CaptureError).message,
        code: (error as CaptureError).code,
        exitCode: (error as CaptureError).exitCode,
      }).toEqual({
        message,
        code: "CAPTURE_INVALID",
        exitCode: 2,
      });
    });
  }

  test("a waypoint capture with neither tree is an error", () => {
    expect(() => parseCapture("empty.example.json", '{"waypointId":"a/b","deviceWidth":10,"deviceHeight":10}')).toThrow(
      "empty.example.json: $: a waypoint capture needs a trailblazeNodeTree or a viewHierarchy; it has neither",
    );
  });
});
