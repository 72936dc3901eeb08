import { describe, expect, test } from "bun:test";
import { childrenNamed, parseXml, type XmlElement } from "../../../test/support/xml.ts";
import type { RunReport, TrailReport } from "../run-types.ts";
import { runToJson } from "./json.ts";
import { formatJunitReport } from "./junit.ts";
import { ListReporter } from "./list.ts";

const nasty = `expected "<b>&amp;" but was 'x'\n\ttab \u0001bell \u001b[31mred\u001b[39m ✓ 🚀`;

function trail(overrides: Partial<TrailReport>): TrailReport {
  return {
    file: "trails/a.trail.yaml",
    id: "a",
    status: "passed",
    startedAt: "2026-01-02T03:04:05.678Z",
    durationMs: 1234,
    steps: [],
    unverified: 0,
    ran: true,
    ...overrides,
  };
}

const failed = trail({
  file: "trails/b & <c>.trail.yaml",
  id: 'b"quoted"',
  status: "failed",
  error: `step 1 failed: assertEquals: ${nasty}`,
  steps: [
    {
      index: 1,
      kind: "verify",
      title: "Greeting <shown>",
      status: "failed",
      durationMs: 3,
      line: 7,
      col: 5,
      tools: [
        {
          name: "assertEquals",
          args: { actual: "<b>" },
          result: { status: "error", variant: "ExceptionThrown", message: nasty },
          startedAt: "2026-01-02T03:04:06.000Z",
          durationMs: 1,
        },
      ],
      failure: {
        tool: "assertEquals",
        args: { actual: "<b>" },
        variant: "ExceptionThrown",
        message: nasty,
        line: 9,
        col: 11,
        stderr: { source: "tools/x.ts", lines: ["boom & <bang>"] },
      },
    },
    { index: 2, kind: "step", title: "Log out", status: "skipped", durationMs: 0, line: 10, col: 5, tools: [] },
  ],
});
const notStarted = trail({
  file: "trails/c.trail.yaml",
  id: "c",
  status: "error",
  ran: false,
  error: "this trail references x_hostOnly, which is host-only and not registered in this on-device session",
  problems: [
    {
      message: "this trail references x_hostOnly, which is host-only and not registered in this on-device session",
      file: "trails/c.trail.yaml",
      line: 4,
      col: 9,
      step: 1,
      stepTitle: "Seed",
      tool: "x_hostOnly",
    },
  ],
});
const skipped = trail({ file: "trails/d.trail.yaml", id: "d", status: "skipped", ran: false, skipReason: "blocked on #12" });
const run: RunReport = {
  trails: [trail({}), failed, notStarted, skipped],
  summary: { passed: 1, failed: 1, errors: 1, skipped: 1, unverified: 0, durationMs: 4321 },
};

describe("junit", () => {
  test("is well-formed XML with a testsuite per file and a testcase per trail, whatever the text holds", () => {
    const doc = parseXml(formatJunitReport(run));
    expect(doc.name).toBe("testsuites");
    expect(doc.attrs).toEqual({ name: "trailblaze", tests: "4", failures: "1", errors: "1", skipped: "1", time: "4.321" });
    const suites = childrenNamed(doc, "testsuite");
    expect(suites.map((s) => s.attrs.name)).toEqual([
      "trails/a.trail.yaml",
      "trails/b & <c>.trail.yaml",
      "trails/c.trail.yaml",
      "trails/d.trail.yaml",
    ]);
    const cases = suites.map((s) => childrenNamed(s, "testcase"));
    expect(cases.map((c) => c.length)).toEqual([1, 1, 1, 1]);
    const [pass, fail, error, skip] = cases.map((c) => c[0]!);
    expect(pass!.attrs).toEqual({ name: "a", classname: "trails/a.trail.yaml", file: "trails/a.trail.yaml", time: "1.234" });
    expect(pass!.children).toEqual([]);

    expect(fail!.attrs.name).toBe('b"quoted"');
    const failure = childrenNamed(fail!, "failure")[0]!;
    // Control characters become U+FFFD, ANSI colour codes are dropped, the rest survives exactly.
    const cleaned = `expected "<b>&amp;" but was 'x'\n\ttab \uFFFDbell red ✓ 🚀`;
    expect(failure.attrs).toEqual({ message: `step 1 failed: assertEquals: expected "<b>&amp;" but was 'x'`, type: "ExceptionThrown" });
    expect(failure.text).toBe(
      [
        "trails/b & <c>.trail.yaml:7:5 step 1: Greeting <shown>",
        "tool: assertEquals",
        'args: {"actual":"<b>"}',
        `ExceptionThrown: ${cleaned}`,
        "stderr of tools/x.ts:",
        "  boom & <bang>",
      ].join("\n"),
    );
    expect(childrenNamed(fail!, "system-out")[0]!.text).toContain(
      `2026-01-02T03:04:06.000Z assertEquals {"actual":"<b>"} -> ExceptionThrown: ${cleaned}`,
    );

    expect(childrenNamed(error!, "error")[0]!.attrs.type).toBe("TrailNotStarted");
    expect(childrenNamed(error!, "error")[0]!.text).toBe(
      'trails/c.trail.yaml:4:9 step 1 "Seed": this trail references x_hostOnly, which is host-only and not registered in this on-device session',
    );
    expect(childrenNamed(skip!, "skipped")[0]!.attrs).toEqual({ message: "blocked on #12" });
  });

  test("a report that did not go through validation cannot add markup: every value escaped, every number forced finite", () => {
    // Markup for an attribute and for text, a CDATA section, a comment, a NUL, and numbers that are strings, objects, NaN or Infinity.
    const markup = `x"/><injected a='1'/><![CDATA[<injected/>]]><!--\u0000`;
    const number = `1"><injected/>`;
    const hostile = {
      trails: [
        {
          file: markup,
          id: markup,
          status: "failed",
          startedAt: markup,
          durationMs: number,
          unverified: `2"/><injected/>`,
          ran: true,
          error: `${markup}\nsecond line`,
          steps: [
            {
              index: number,
              kind: markup,
              title: markup,
              status: "failed",
              durationMs: Number.NaN,
              line: number,
              col: { toString: markup },
              unverified: markup,
              tools: [
                {
                  name: markup,
                  args: { text: markup },
                  result: { status: "error", variant: markup, message: { markup } },
                  startedAt: markup,
                  durationMs: Number.POSITIVE_INFINITY,
                },
              ],
              failure: {
                tool: markup,
                args: { text: markup },
                variant: markup,
                message: markup,
                stderr: { source: markup, lines: [markup, 7] },
              },
            },
          ],
        },
        {
          file: "b",
          id: markup,
          status: "skipped",
          startedAt: "2026-01-02T03:04:05.678Z",
          durationMs: Number.NEGATIVE_INFINITY,
          unverified: Number.NaN,
          ran: false,
          skipReason: markup,
          steps: [],
        },
        {
          file: "b",
          id: "c",
          status: "error",
          startedAt: "2026-01-02T03:04:05.678Z",
          durationMs: 0,
          unverified: 0,
          ran: false,
          problems: [{ message: markup, file: markup, line: number, col: number, step: number, stepTitle: 42 }],
          steps: [],
        },
      ],
      summary: { passed: number, failed: 1, errors: 1, skipped: 1, unverified: 0, durationMs: number },
      interrupted: markup,
    } as unknown as RunReport;
    const xml = formatJunitReport(hostile);
    const doc = parseXml(xml);
    const names = (el: XmlElement): string[] => [el.name, ...el.children.flatMap(names)];
    expect(names(doc)).toEqual([
      "testsuites",
      "testsuite",
      "testcase",
      "failure",
      "system-out",
      "testsuite",
      "testcase",
      "skipped",
      "testcase",
      "error",
    ]);
    // Only the escaped forms of the markup are in the file.
    expect(xml.match(/<injected|<!\[CDATA\[|<!--|\u0000/g)).toBeNull();
    const shown = markup.replace("\u0000", "\uFFFD");
    expect(doc.attrs).toEqual({
      name: `trailblaze (partial: ${shown})`,
      tests: "3",
      failures: "1",
      errors: "1",
      skipped: "1",
      time: "0.000",
    });
    const [first, second] = childrenNamed(doc, "testsuite");
    expect(first!.attrs).toEqual({ name: shown, tests: "1", failures: "1", errors: "0", skipped: "0", time: "0.000", timestamp: shown });
    const failing = childrenNamed(first!, "testcase")[0]!;
    // The unverified count is not a number: no property, no UNVERIFIED line.
    expect(failing.attrs).toEqual({ name: shown, classname: shown, file: shown, time: "0.000" });
    expect(failing.children.map((c) => c.name)).toEqual(["failure", "system-out"]);
    const failure = childrenNamed(failing, "failure")[0]!;
    expect(failure.attrs).toEqual({ message: shown, type: shown });
    expect(failure.text).toBe(
      [
        `${shown}:0:0 step 0: ${shown}`,
        `tool: ${shown}`,
        `args: ${JSON.stringify({ text: markup })}`,
        `${shown}: ${shown}`,
        `stderr of ${shown}:`,
        `  ${shown}`,
        "  7",
      ].join("\n"),
    );
    expect(childrenNamed(failing, "system-out")[0]!.text).toBe(
      [
        `FAILED  step 0 [${shown}] ${shown} (0 ms) unverified: ${shown}`,
        `  ${shown} ${shown} ${JSON.stringify({ text: markup })} -> ${shown}: ${JSON.stringify({ markup })} (0 ms)`,
      ].join("\n"),
    );
    const [skipped, errored] = childrenNamed(second!, "testcase");
    expect(second!.attrs.time).toBe("0.000");
    expect(skipped!.attrs).toEqual({ name: shown, classname: "b", file: "b", time: "0.000" });
    expect(childrenNamed(skipped!, "skipped")[0]!.attrs).toEqual({ message: shown });
    expect(childrenNamed(errored!, "error")[0]!.text).toBe(`${shown} step ${number} "42": ${shown}`);
  });

  test("a run stopped before any trail: its problems escaped, their line and column forced finite", () => {
    const markup = `"/><injected/>`;
    const stopped = {
      trails: [],
      problems: [{ message: markup, file: markup, line: `3"><injected/>`, col: Number.NaN }],
      summary: { passed: 0, failed: 0, errors: 0, skipped: 0, unverified: 0, durationMs: Number.NaN },
    } as unknown as RunReport;
    const xml = formatJunitReport(stopped);
    expect(xml).not.toContain("<injected");
    const doc = parseXml(xml);
    expect(doc.attrs.time).toBe("0.000");
    const error = childrenNamed(childrenNamed(childrenNamed(doc, "testsuite")[0]!, "testcase")[0]!, "error")[0]!;
    expect(error.attrs).toEqual({ message: `the run stopped before any trail started: ${markup}:0:0: ${markup}`, type: "RunNotStarted" });
    expect(error.text).toBe(`${markup}:0:0: ${markup}`);
  });
});

describe("json", () => {
  test("has the shape docs/formats.md documents (JSON documents)", () => {
    const doc = runToJson(run) as { trails: Record<string, unknown>[]; summary: unknown };
    expect(doc.summary).toEqual({ passed: 1, failed: 1, errors: 1, skipped: 1, unverified: 0, durationMs: 4321 });
    expect(doc.trails.map((t) => t.unverified)).toEqual([0, 0, 0, 0]);
    expect(doc.trails.map((t) => t.status)).toEqual(["passed", "failed", "error", "skipped"]);
    const f = doc.trails[1] as { steps: { title: string; status: string; tools: { name: string; result: unknown }[] }[]; error: string };
    expect(f.steps[0]).toMatchObject({
      title: "Greeting <shown>",
      status: "failed",
      tools: [{ name: "assertEquals", result: { status: "error", variant: "ExceptionThrown" } }],
    });
    expect(f.error).toStartWith("step 1 failed: assertEquals:");
    expect("ran" in doc.trails[0]!).toBe(false);
  });
});

describe("list", () => {
  const render = (color: boolean) => {
    let out = "";
    const list = new ListReporter((text) => void (out += text), { color, live: false });
    for (const [index, t] of run.trails.entries()) list.onTrailEnd({ file: t.file, id: t.id, index }, t);
    return out + list.summary(run);
  };

  test("a failure shows the tool, its location, masked args, the message and the stderr tail; no colours unless asked", () => {
    const text = render(false);
    expect(text).not.toContain("\u001b[");
    expect(text).toContain(
      [
        `trails/b & <c>.trail.yaml (b"quoted")`,
        "  ✗ [verify] Greeting <shown> (3 ms)",
        "      tool:    assertEquals (trails/b & <c>.trail.yaml:9:11)",
        '      args:    {"actual":"<b>"}',
        `      error:   ExceptionThrown: expected "<b>&amp;" but was 'x'`,
        // Shown escaped for the terminal; a colour code of the message dropped.
        `               \ttab \\x01bell red ✓ 🚀`,
        "      stderr of tools/x.ts (last 1 line):",
        "        | boom & <bang>",
        "  - Log out (not run)",
        "  failed in 1.2 s",
      ].join("\n"),
    );
    expect(text).toContain(
      [
        "trails/c.trail.yaml (c)",
        "  error: not started after 1.2 s",
        '      trails/c.trail.yaml:4:9 step 1 "Seed": this trail references x_hostOnly, which is host-only and not registered in this on-device session',
      ].join("\n"),
    );
    expect(text).toContain("trails/d.trail.yaml (d)\n  skipped: blocked on #12\n");
    expect(text).toEndWith("1 passed, 1 failed, 1 error, 1 skipped (4 trails) in 4.3 s\n");
  });

  test("colours when asked", () => {
    const text = render(true);
    expect(text).toContain("  \u001b[31m✗\u001b[39m \u001b[2m[verify] \u001b[22mGreeting");
    expect(text).toContain("\u001b[32m1 passed\u001b[39m");
  });
});

describe("list: what came from outside reaches the terminal escaped, the list's own colours do not", () => {
  const OSC_TITLE = "\u001b]0;pwned\u0007";
  const CLEAR = "\u001b[2J\u001b[H";
  const hostile = trail({
    file: `trails/${CLEAR}x.trail.yaml`,
    id: `x${OSC_TITLE}`,
    title: `Checkout ${OSC_TITLE}\n  ✓ fake line`,
    status: "failed",
    error: `step 1 failed: ${CLEAR}gone`,
    steps: [
      {
        index: 1,
        kind: "step",
        title: `Pay ${OSC_TITLE}`,
        status: "failed",
        durationMs: 3,
        line: 7,
        col: 5,
        agent: {
          model: "local/scripted",
          why: "no-recording",
          tokens: { input: 1, output: 1 },
          turns: [
            {
              turn: 1,
              shown: "",
              image: false,
              requestBytes: 1,
              called: { tool: `tap${CLEAR}`, args: {} },
              outcome: `the model says ${OSC_TITLE}${CLEAR}\r✓ all good \u009b2J \u202eevil`,
              ok: false,
              tokens: { input: 1, output: 1 },
              durationMs: 1,
            },
          ],
        },
        tools: [
          {
            name: "pay_now",
            args: { card: "x" },
            result: { status: "success", variant: "Success", message: `paid ${CLEAR}${OSC_TITLE}` },
            startedAt: "2026-01-02T03:04:06.000Z",
            durationMs: 1,
          },
        ],
        failure: {
          tool: "pay_now",
          message: `declined${OSC_TITLE}\nsecond line \u001b[8mhidden`,
          stderr: { source: "tools/pay.ts", lines: [`${CLEAR}log line \u001b[31mred\u001b[0m`] },
        },
      },
    ],
  });
  const hostileRun: RunReport = {
    trails: [hostile],
    summary: { passed: 0, failed: 1, errors: 0, skipped: 0, unverified: 0, durationMs: 10 },
  };

  for (const [how, color, live] of [
    ["coloured, live", true, true],
    ["plain, as a block", false, false],
  ] as const) {
    test(`${how}: an OSC title, a clear screen, a carriage return, a C1 CSI and a bidi override in a trail's file, id and title, a step, a tool's message, the model's outcome, the error and a server's stderr`, () => {
      let out = "";
      const list = new ListReporter((text) => void (out += text), { color, live });
      const info = { file: hostile.file, id: hostile.id, title: hostile.title!, index: 0 };
      list.onBegin({ trails: [info], workers: live ? 1 : 2 });
      list.onTrailBegin(info);
      if (live) list.onStepEnd(info, hostile.steps[0]!);
      list.onTrailEnd(info, hostile);
      list.onEnd(hostileRun);
      // No escape sequence but the list's own colours; nothing the terminal would act on.
      const sequences = out.match(/\u001b[^m]*m?/g) ?? [];
      expect(sequences.every((seq) => /^\u001b\[(1|2|22|31|32|33|39)m$/.test(seq))).toBe(true);
      if (color) expect(sequences.length).toBeGreaterThan(0);
      else expect(sequences).toEqual([]);
      expect(out).not.toMatch(/[\u0007\r\u009b\u202e]/);
      const plain = out.replace(/\u001b\[\d+m/g, "");
      expect(plain).toContain("trails/\\x1b[2J\\x1b[Hx.trail.yaml (x\\x1b]0;pwned\\x07 — Checkout \\x1b]0;pwned\\x07 …)");
      expect(plain).toContain("  ✗ Pay \\x1b]0;pwned\\x07 (3 ms)");
      expect(plain).toContain(
        "      ✗ tap\\x1b[2J\\x1b[H: the model says \\x1b]0;pwned\\x07\\x1b[2J\\x1b[H\\r✓ all good \\x9b2J \\u202eevil",
      );
      expect(plain).toContain("      ↳ pay_now: paid \\x1b[2J\\x1b[H\\x1b]0;pwned\\x07");
      expect(plain).toContain("      error:   declined\\x1b]0;pwned\\x07\n               second line hidden");
      expect(plain).toContain("        | \\x1b[2J\\x1b[Hlog line red");
      expect(plain).toContain(": step 1 failed: \\x1b[2J\\x1b[Hgone");
      // The trail's title is one line: its own newline cannot print a line of its own.
      expect(plain).not.toContain("\n  ✓ fake line");
    });
  }

  test("the list's summary and blocks, as methods, are what it prints", () => {
    const list = new ListReporter(() => {}, { color: false });
    expect(list.formatTrail(hostile)).not.toContain("\u001b");
    expect(list.summary(hostileRun)).toContain("(x\\x1b]0;pwned\\x07): step 1 failed: \\x1b[2J\\x1b[Hgone");
  });
});

describe("unverified steps", () => {
  const call = (name: string, args: Record<string, unknown>, result: Record<string, unknown>) => ({
    name,
    args,
    result: { status: "success", variant: "Success", ...result },
    startedAt: "2026-01-02T03:04:06.000Z",
    durationMs: 1,
  });
  // A trail that passed: step 1 checked memory for real; step 2's screen check could not be made.
  const partly = trail({
    file: "trails/u.trail.yaml",
    id: "u",
    unverified: 1,
    steps: [
      {
        index: 1,
        kind: "step",
        title: "The total adds up",
        status: "passed",
        durationMs: 1,
        line: 3,
        col: 5,
        tools: [call("assertEquals", { actual: "3", expected: "3" }, { message: '"3" equals "3"' })],
      },
      {
        index: 2,
        kind: "verify",
        title: "The greeting shows",
        status: "unverified",
        unverified: "no screen loaded",
        durationMs: 2,
        line: 5,
        col: 5,
        tools: [
          call(
            "assertVisibleWithText",
            { text: "Hello" },
            { message: 'unverified: no screen loaded (would check that "Hello" is visible)', unverified: "no screen loaded" },
          ),
        ],
      },
    ],
  });
  // A trail that checked nothing: its one step only acted on a device with no screen.
  const nothing = trail({
    file: "trails/n.trail.yaml",
    id: "n",
    status: "unverified",
    unverified: 1,
    steps: [
      {
        index: 1,
        kind: "trailhead",
        title: "Launch",
        status: "unverified",
        unverified: "nothing checked: launchApp acted on a simulated device with no screen loaded",
        durationMs: 2,
        line: 2,
        col: 3,
        tools: [
          call(
            "launchApp",
            { appId: "com.example" },
            {
              message: "simulated device: launchApp com.example (REINSTALL)",
              unchecked: "acted on a simulated device with no screen loaded",
              structuredContent: { simulatedDevice: { action: "launchApp" } },
            },
          ),
        ],
      },
    ],
  });
  const unverifiedRun: RunReport = {
    trails: [partly, nothing],
    summary: { passed: 1, failed: 0, errors: 0, skipped: 0, unverified: 2, unverifiedTrails: 1, durationMs: 10 },
  };

  test("list: a ⚠ step with the reason (the call's line, or a line of its own when its calls only acted), the trail's footer and the summary", () => {
    let out = "";
    const list = new ListReporter((text) => void (out += text), { live: false });
    list.onTrailEnd({ file: partly.file, id: partly.id, index: 0 }, partly);
    list.onTrailEnd({ file: nothing.file, id: nothing.id, index: 1 }, nothing);
    out += list.summary(unverifiedRun);
    expect(out).toBe(
      [
        "trails/u.trail.yaml (u)",
        "  ✓ The total adds up (1 ms)",
        '      ↳ assertEquals: "3" equals "3"',
        "  ⚠ [verify] The greeting shows (2 ms)",
        '      ↳ assertVisibleWithText: unverified: no screen loaded (would check that "Hello" is visible)',
        "  passed (1 unverified step) in 1.2 s",
        "trails/n.trail.yaml (n)",
        "  ⚠ [trailhead] Launch (2 ms)",
        "      ↳ simulated device: launchApp com.example (REINSTALL)",
        "      ⚠ nothing checked: launchApp acted on a simulated device with no screen loaded",
        "  nothing verified: no step checked anything for real (1 unverified step; give the device a screen with --capture, --map or simulation:) in 1.2 s",
        "",
        "1 passed, 1 ran with nothing verified, 0 failed, 2 unverified steps (2 trails) in 10 ms",
        "",
      ].join("\n"),
    );
  });

  test("json: trails[].unverified, summary.unverified and unverifiedTrails, the step's reason and the call's", () => {
    const doc = runToJson(unverifiedRun) as {
      trails: { status: string; unverified: number; steps: { tools: { result: Record<string, unknown> }[] }[] }[];
      summary: Record<string, number>;
    };
    expect(doc.summary).toMatchObject({ passed: 1, unverified: 2, unverifiedTrails: 1 });
    expect(doc.trails.map((t) => [t.status, t.unverified])).toEqual([
      ["passed", 1],
      ["unverified", 1],
    ]);
    expect(doc.trails[0]!.steps[1]).toMatchObject({ status: "unverified", unverified: "no screen loaded" });
    expect(doc.trails[1]!.steps[0]).toMatchObject({
      status: "unverified",
      unverified: "nothing checked: launchApp acted on a simulated device with no screen loaded",
    });
    expect(doc.trails[1]!.steps[0]!.tools[0]!.result.unchecked).toBe("acted on a simulated device with no screen loaded");
  });

  test("junit: the passed trail has a property and a system-out line; the one that checked nothing is skipped, saying so", () => {
    const suites = childrenNamed(parseXml(formatJunitReport(unverifiedRun)), "testsuite");
    const [passed, skipped] = suites.map((suite) => childrenNamed(suite, "testcase")[0]!);
    expect(childrenNamed(passed!, "failure")).toEqual([]);
    expect(childrenNamed(passed!, "skipped")).toEqual([]);
    const properties = childrenNamed(childrenNamed(passed!, "properties")[0]!, "property");
    expect(properties.map((p) => p.attrs)).toEqual([{ name: "unverified", value: "1" }]);
    expect(childrenNamed(passed!, "system-out")[0]!.text).toContain(
      "UNVERIFIED 1 step: nothing checked for real, or a check that could not be made (--require-screen fails them)\nPASSED  step 1 [step] The total adds up (1 ms)",
    );
    expect(childrenNamed(passed!, "system-out")[0]!.text).toContain(
      "UNVERIFIED step 2 [verify] The greeting shows (2 ms) unverified: no screen loaded",
    );
    expect(childrenNamed(skipped!, "skipped").map((e) => e.attrs)).toEqual([
      { message: "nothing verified: no step checked anything for real (1 unverified step)" },
    ]);
    expect(childrenNamed(skipped!, "system-out")[0]!.text).toContain(
      "-> Success: simulated device: launchApp com.example (REINSTALL) (1 ms) nothing checked: acted on a simulated device with no screen loaded",
    );
    expect(suites.map((suite) => suite.attrs.skipped)).toEqual(["0", "1"]);
  });
});
