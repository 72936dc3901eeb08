// The JSON report's format (`run --reporter json`), versioned and checked on the way in: its
// version, the zod schema of the whole document (every field a reporter reads, with its type and
// enum), and `parseReport`, which `merge-reports` reads each file with. A report of a newer
// format is refused ("upgrade"); one without a version (written before formats were numbered) is
// read as format 1, which it is. Fields this build does not know are dropped.

import { z } from "zod";
import { valueAt } from "../core/describe.ts";
import { TYPE_ARTICLE } from "../core/zod-wording.ts";
import { ReportFileError } from "../errors.ts";
import { IMAGE_DATA_URL, IMAGE_DATA_URL_MAX, SCREENSHOT_CAP_BYTES } from "../screen/screenshot.ts";
import type { RunReport, TrailReport } from "./run-types.ts";

/** The format `run --reporter json` writes, as `version`; bump it when a reader of the previous one would misread a report. */
export const REPORT_FORMAT = 1;

const count = z.number().int().nonnegative();
/** Milliseconds (finite: zod refuses Infinity, which `1e999` in JSON parses to). */
const ms = z.number();
const position = z.number().int().nonnegative();
const nodeId = z.number().int();
const text = z.string();
const record = z.record(z.string(), z.unknown());
/** A screen's key in `screens`: 12 hex digits of its content's SHA-1 (`wireframeId`). */
const screenId = z.string().regex(/^[0-9a-f]{12}$/, "12 lowercase hex digits");

const toolCall = z.object({
  name: text,
  args: record,
  // resultToJson's shape; other fields (structuredContent, code…) are kept as they are.
  result: z.looseObject({ status: z.enum(["success", "error"]), variant: text, message: text.optional() }),
  startedAt: text,
  durationMs: ms,
});

const failure = z.object({
  tool: text.optional(),
  args: record.optional(),
  variant: text.optional(),
  message: text,
  line: position.optional(),
  col: position.optional(),
  stderr: z.object({ source: text, lines: z.array(text) }).optional(),
});

const stepScreen = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("capture"),
    screen: screenId,
    waypoint: text.optional(),
    matched: z.array(nodeId),
    moves: z.array(z.object({ from: text, to: text, shortcut: text })).optional(),
    after: screenId.optional(),
    afterMatched: z.array(nodeId).optional(),
    expected: z
      .object({
        kind: z.enum(["waypoint", "selector"]),
        waypoint: text,
        screen: screenId.optional(),
        actual: screenId,
        conditions: z.array(
          z.object({
            role: z.enum(["required", "forbidden", "selector"]),
            description: text,
            ok: z.boolean(),
            actual: z.array(nodeId),
            expected: z.array(nodeId),
          }),
        ),
      })
      .optional(),
  }),
  z.object({ kind: z.literal("web"), url: text, title: text, outline: text, screenshot: text.optional() }),
]);

const tokens = z.object({ input: count, output: count });

const agentTurn = z.object({
  turn: position,
  shown: text,
  image: z.boolean(),
  requestBytes: count,
  called: z.object({ tool: text, args: record }).optional(),
  text: text.optional(),
  outcome: text.optional(),
  ok: z.boolean().optional(),
  refused: z.boolean().optional(),
  unverified: text.optional(),
  tokens,
  costUsd: z.number().nonnegative().optional(),
  durationMs: ms,
});

const agentStep = z.object({
  model: text,
  why: z.enum(["no-recording", "words", "self-heal"]),
  recordingFailure: failure.optional(),
  turns: z.array(agentTurn),
  tokens,
  costUsd: z.number().nonnegative().optional(),
});

const step = z.object({
  index: position,
  kind: z.enum(["trailhead", "step", "verify"]),
  title: text,
  status: z.enum(["passed", "healed", "failed", "skipped", "unverified", "interrupted"]),
  durationMs: ms,
  tools: z.array(toolCall),
  failure: failure.optional(),
  unverified: text.optional(),
  memory: z.object({ set: record.optional(), deleted: z.array(text).optional() }).optional(),
  screen: stepScreen.optional(),
  agent: agentStep.optional(),
  line: position,
  col: position,
});

const trailProblem = z.object({
  message: text,
  file: text,
  line: position,
  col: position,
  step: position.optional(),
  stepTitle: text.optional(),
  tool: text.optional(),
  kind: z.enum(["tool", "args"]).optional(),
});

const trail = z.object({
  file: text,
  id: text,
  title: text.optional(),
  tags: z.array(text).optional(),
  status: z.enum(["passed", "unverified", "failed", "error", "skipped"]),
  startedAt: text,
  durationMs: ms,
  unverified: count,
  healed: count.optional(),
  savedRecording: z.object({ file: text, slot: text, steps: z.array(position) }).optional(),
  session: z
    .object({ id: text, target: text, driver: text, platform: text, agent: text, deviceKey: text.optional(), logsDir: text.optional() })
    .optional(),
  steps: z.array(step),
  error: text.optional(),
  problems: z.array(trailProblem).optional(),
  skipReason: text.optional(),
  memory: record.optional(),
});

const wireNode = z.object({
  id: nodeId,
  parent: nodeId.optional(),
  bounds: z.tuple([z.number(), z.number(), z.number(), z.number()]).optional(),
  type: text.optional(),
  text: text.optional(),
  interactive: z.literal(true).optional(),
});

/** A screenshot: a WebP, PNG or JPEG data: URL under the embedding cap, and nothing else (no other scheme, no markup, no huge string). */
const screenshot = z
  .string()
  .max(IMAGE_DATA_URL_MAX, `a screenshot of at most ${SCREENSHOT_CAP_BYTES / 1024} KB`)
  .regex(IMAGE_DATA_URL, "a data:image/webp, png or jpeg;base64 URL");

const wireframe = z.object({
  file: text,
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
  waypoint: text.optional(),
  nodes: z.array(wireNode),
  screenshot: screenshot.optional(),
  screenshotNote: text.max(1000, "a note of at most 1000 characters").optional(),
});

/** The whole JSON report, as `run --reporter json` writes it (format 1). */
const reportSchema = z.object({
  version: z.literal(REPORT_FORMAT).optional(),
  trails: z.array(trail),
  summary: z.object({
    passed: count,
    failed: count,
    errors: count,
    skipped: count,
    unverified: count,
    unverifiedTrails: count.optional(),
    healed: count.optional(),
    durationMs: ms,
  }),
  interrupted: text.optional(),
  shard: z
    .object({ index: z.number().int().positive(), total: z.number().int().positive() })
    .refine((s) => s.index <= s.total, { message: "expected index at most total", path: ["index"] })
    .optional(),
  problems: z.array(z.object({ message: text, file: text.optional(), line: position.optional(), col: position.optional() })).optional(),
  screens: z.record(screenId, wireframe).optional(),
});

/** A report as JSON: what `runToJson` writes and `parseReport` reads. */
export type ReportJson = z.infer<typeof reportSchema>;

/** `trails[0].steps[2].screen.matched[0]`, `screens["f7cc8fcdbd51"].width` for an issue's path (a key other than a plain word quoted). */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z]+$/.test(String(segment))) out += `${out ? "." : ""}${String(segment)}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out || "(the document)";
}

/** A value as a message shows it: strings quoted and cut at 40 characters, containers by kind. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (value !== null && typeof value === "object") return "an object";
  if (typeof value === "string" && value.length > 40) return `${JSON.stringify(value.slice(0, 40)).slice(0, -1)}…"`;
  return JSON.stringify(value);
}

/** One issue as `path: expected …, got …`. */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const at = fieldPath(issue.path);
  const got = shown(valueAt(input, issue.path));
  switch (issue.code) {
    case "invalid_type":
      if (issue.expected === "int") return `${at}: expected an integer, got ${got}`;
      return `${at}: expected ${TYPE_ARTICLE[issue.expected] ?? issue.expected}, got ${got}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `${at}: expected ${shown(issue.values[0])}, got ${got}`
        : `${at}: expected one of ${issue.values.join(", ")}, got ${got}`;
    case "invalid_union": {
      const options = (issue as { options?: unknown[] }).options;
      return options ? `${at}: expected one of ${options.join(", ")}, got ${got}` : `${at}: unexpected value ${got}`;
    }
    case "invalid_key":
      return `${at}: expected a key of ${issue.issues.map((i) => i.message).join("; ")}`;
    case "invalid_format":
      return `${at}: expected ${issue.message}, got ${got}`;
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? `at least ${String(issue.minimum)}` : `at most ${String(issue.maximum)}`;
      const value = valueAt(input, issue.path);
      if (typeof value === "string" && issue.code === "too_big")
        return `${at}: expected ${issue.message}, got a string of ${value.length} characters`;
      return Array.isArray(value) ? `${at}: expected ${bound} items, got ${value.length}` : `${at}: expected ${bound}, got ${got}`;
    }
    default:
      return `${at}: ${issue.message}, got ${got}`;
  }
}

/** At most this many problems are listed; the count says how many more there are. */
const LISTED = 10;

/**
 * The report in `json` (read from `file`, named in every message), checked against the schema:
 * a ReportFileError (exit 2) naming each field that does not fit, or a newer format's.
 */
export function parseReport(file: string, json: unknown): RunReport {
  const object = typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  const format = object?.version;
  if (typeof format === "number" && Number.isInteger(format) && format > REPORT_FORMAT) {
    throw new ReportFileError(
      file,
      `written by a newer trailblaze-ts (format ${format}, this one reads up to ${REPORT_FORMAT}): upgrade trailblaze-ts to merge it`,
    );
  }
  if (!object || !Array.isArray(object.trails) || typeof object.summary !== "object" || object.summary === null) {
    throw new ReportFileError(file, "expected a report written by `trailblaze run --reporter json` ({trails: […], summary: {…}})");
  }
  const result = reportSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => describeIssue(issue, json));
    const more = problems.length > LISTED ? [`… and ${problems.length - LISTED} more`] : [];
    throw new ReportFileError(
      file,
      problems.length === 1
        ? problems[0]!
        : `${problems.length} fields do not fit the JSON report format:\n  ${[...problems.slice(0, LISTED), ...more].join("\n  ")}`,
    );
  }
  // No cast: tsc checks that what the schema gives is a RunReport (so the two cannot drift apart).
  const { version: _format, trails, ...rest } = result.data;
  // A trail ran when any of its steps started (one that failed before its first step has none).
  const read: TrailReport[] = trails.map((t) => ({ ...t, ran: t.steps.some((s) => s.status !== "skipped") }));
  return { ...rest, trails: read };
}
