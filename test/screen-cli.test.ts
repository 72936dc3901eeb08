// `bun trailblaze screen`: outline, selectors, waypoint checks and --json through runCli, exit
// codes for each outcome, and once as a real subprocess.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cli, cliProcess, REPO, tempDir } from "./support/cli.ts";
import { parseXml, type XmlElement } from "./support/xml.ts";

const WAYPOINTS = "fixtures/demo/maps/myapp/waypoints";
const HOME = `${WAYPOINTS}/myapp_android_home.example.json`;
const opts = { cwd: REPO };

describe("screen", () => {
  test("without options: the outline, one node a line, indented by depth", async () => {
    const run = await cli(["screen", "fixtures/screens/legacy-hierarchy.json"], opts);
    expect(run).toEqual({
      code: 0,
      stderr: "",
      stdout: `fixtures/screens/legacy-hierarchy.json: view hierarchy, 6 nodes, 720x1280 (ids: assigned in document order, as the capture's are not unique)
  #1 FrameLayout [0,0][720,1280]
    #2 TextView "Inbox" id=com.example:id/title [20,20][700,90]
    #3 ListView id=com.example:id/list [0,100][720,1200]
      #4 TextView "Lunch on Friday?" [20,110][700,200]
      #5 TextView "Lunch moved" [20,210][700,300]
    #6 ImageButton "Compose" [600,1200][700,1270]
`,
    });
  });

  test("--selector: each selector's result, with closest candidates for no match", async () => {
    const run = await cli(
      ["screen", HOME, "--selector", '{"androidAccessibility":{"textRegex":"Home"}}', "--selector", '{"textRegex":"setings"}'],
      opts,
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`selector 1: {"androidAccessibility":{"textRegex":"Home"}}
  multipleMatches (2 nodes; a tap uses the first)
    #2 TextView "Home" id=com.example.myapp:id/title [60,200][1020,320]
    #8 TextView "Home" [0,2200][540,2400]

selector 2: {"textRegex":"setings"}
  noMatch
  closest: #9 TextView "Settings" [540,2200][1080,2400]
`);
  });

  test("--waypoint not satisfied: exit 1 and what failed", async () => {
    const run = await cli(["screen", HOME, "--waypoint", `${WAYPOINTS}/myapp_android_profile.waypoint.yaml`], opts);
    expect(run).toEqual({
      code: 1,
      stderr: "",
      stdout: `waypoint myapp/android/profile (android): ✗ not satisfied
  ✗ required  Profile heading: no match
  ✗ required  The account's e-mail address: no match
  ✓ forbidden Log out button (only on settings): absent
`,
    });
  });

  test("--json prints exactly the contract's shape", async () => {
    const run = await cli(
      ["screen", HOME, "--json", "--selector", '{"textRegex":"hello.*"}', "--waypoint", `${WAYPOINTS}/myapp_android_home.waypoint.yaml`],
      opts,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      screen: { nodes: 9, width: 1080, height: 2400 },
      matches: [{ selector: { textRegex: "hello.*" }, kind: "singleMatch", nodeIds: [3] }],
      waypoint: {
        id: "myapp/android/home",
        ok: true,
        required: [
          { description: "Home heading", kind: "singleMatch", nodeIds: [2] },
          { description: "Greeting with the user's name", kind: "singleMatch", nodeIds: [3] },
          { description: "Settings tab in the bottom navigation", kind: "singleMatch", nodeIds: [9] },
        ],
        forbidden: [{ description: "Log in button", kind: "noMatch", nodeIds: [] }],
      },
    });
    const plain = await cli(["screen", HOME, "--json"], opts);
    expect(JSON.parse(plain.stdout)).toEqual({ screen: { nodes: 9, width: 1080, height: 2400 } });
  });

  const USAGE: [string[], string][] = [
    [["screen"], "error: screen: expected one capture file, got none\nRun `npx trailblaze screen --help` for usage.\n"],
    [
      ["screen", "fixtures/screens/malformed/bad-bounds.example.json"],
      'error: fixtures/screens/malformed/bad-bounds.example.json: $.trailblazeNodeTree.children[2].bounds.left: expected a number, got "x"\n',
    ],
    [["screen", HOME, "--selector", "{textRegex:"], "error: --selector #1: not valid JSON (JSON Parse error: Expected '}'): {textRegex:\n"],
    [
      ["screen", HOME, "--selector", '{"web":{"ariaRol":"link"}}'],
      'error: --selector #1: $.web.ariaRol: unknown web field; did you mean "ariaRole"?\n',
    ],
    [["screen", HOME, "--waypoint", "nope.waypoint.yaml"], `error: ${join(REPO, "nope.waypoint.yaml")}: waypoint file not found\n`],
    // The file itself, named as given and where it was looked for: not a place in its JSON.
    [["screen", "nope.json"], `error: nope.json: file not found (looked for ${join(REPO, "nope.json")})\n`],
  ];
  for (const [argv, stderr] of USAGE) {
    test(`exit 2: ${argv.slice(1).join(" ") || "(no capture)"}`, async () => {
      expect(await cli(argv, opts)).toEqual({ code: 2, stdout: "", stderr });
    });
  }

  test("--svg: well-formed SVG with a rect per node, the --selector matches marked", async () => {
    const out = join(tempDir("screen-svg"), "deep/home.svg");
    const run = await cli(["screen", HOME, "--selector", '{"androidAccessibility":{"textRegex":"Home"}}', "--svg", out], opts);
    expect(run).toEqual({
      code: 0,
      stderr: "",
      stdout: `wireframe written to ${out} (9 nodes, 2 marked)

selector 1: {"androidAccessibility":{"textRegex":"Home"}}
  multipleMatches (2 nodes; a tap uses the first)
    #2 TextView "Home" id=com.example.myapp:id/title [60,200][1020,320]
    #8 TextView "Home" [0,2200][540,2400]
`,
    });
    const svg = parseXml(readFileSync(out, "utf8"));
    expect(svg.name).toBe("svg");
    expect(svg.attrs.viewBox).toBe("0 0 1080 2400");
    const rects = svg.children.filter((c: XmlElement) => c.name === "rect");
    expect(rects.map((r) => Number(r.attrs["data-node-id"]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rects.filter((r) => "data-match" in r.attrs).map((r) => r.attrs["data-node-id"])).toEqual(["2", "8"]);
    expect(rects[8]!.attrs).toMatchObject({ x: "540", y: "2200", width: "540", height: "200" });
    expect(svg.children.filter((c) => c.name === "text").map((t) => t.text)).toContain("Settings");
  });

  test("--svg over the capture's own screenshot: the image embedded under the boxes, --waypoint's required nodes marked", async () => {
    const dir = "fixtures/report/maps/calendar/waypoints";
    const out = join(tempDir("screen-svg-shot"), "theme.svg");
    const run = await cli(
      [
        "screen",
        `${dir}/calendar_android_theme_picker.example.json`,
        "--waypoint",
        `${dir}/calendar_android_theme_picker.waypoint.yaml`,
        "--svg",
        out,
      ],
      opts,
    );
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe(
      `screenshot calendar_android_theme_picker.example.png with the wireframe over it written to ${out} (7 nodes, 3 marked)`,
    );
    const svg = parseXml(readFileSync(out, "utf8"));
    expect(svg.attrs.class).toBe("wireframe shot");
    const image = svg.children.find((c) => c.name === "image")!;
    const png = readFileSync(join(REPO, dir, "calendar_android_theme_picker.example.png"));
    expect(image.attrs).toEqual({
      href: `data:image/png;base64,${png.toString("base64")}`,
      x: "0",
      y: "0",
      width: "1080",
      height: "2400",
      preserveAspectRatio: "none",
    });
    const rects = svg.children.filter((c: XmlElement) => c.name === "rect");
    expect(rects.filter((r) => "data-required" in r.attrs).map((r) => r.attrs["data-node-id"])).toEqual(["3", "6", "7"]);
    // The drawer has no screenshot beside its capture: the wireframe alone, with its labels.
    const drawer = join(tempDir("screen-svg-bare"), "drawer.svg");
    expect((await cli(["screen", `${dir}/calendar_android_drawer_open.example.json`, "--svg", drawer], opts)).stdout).toBe(
      `wireframe written to ${drawer} (8 nodes, 0 marked)\n`,
    );
    expect(parseXml(readFileSync(drawer, "utf8")).children.some((c) => c.name === "image")).toBe(false);
  });

  test("--help and the command list", async () => {
    const help = await cli(["screen", "--help"], opts);
    expect(help.code).toBe(0);
    expect(help.stdout.split("\n")[0]).toBe(
      "Usage: npx trailblaze screen <capture.json> [--selector JSON]... [--waypoint FILE] [--json] [--svg FILE]",
    );
    const main = await cli(["--help"], opts);
    expect(main.stdout).toMatch(/\n {2}screen +outline a captured screen, resolve selectors on it, check it against a waypoint\n/);
  });

  test("as a real subprocess", async () => {
    const run = await cliProcess(["screen", HOME, "--selector", '{"androidAccessibility":{"textRegex":"Settings"}}', "--json"], opts);
    expect({ code: run.code, stderr: run.stderr, doc: JSON.parse(run.stdout) }).toEqual({
      code: 0,
      stderr: "",
      doc: {
        screen: { nodes: 9, width: 1080, height: 2400 },
        matches: [{ selector: { androidAccessibility: { textRegex: "Settings" } }, kind: "singleMatch", nodeIds: [9] }],
      },
    });
  });
});
