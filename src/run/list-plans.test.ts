import { expect, test } from "bun:test";
import { Secrets } from "../core/secrets.ts";
import { parseTrailFile } from "../trail/trail-file.ts";
import { listTrail } from "./list-plans.ts";

const trail = parseTrailFile(
  "greet.trail.yaml",
  `config:
  args:
    user: { type: string, description: Who to greet }
    times: { type: integer, default: 2 }
    note: { type: string, default: "token is s3cret" }
trail:
  - step: Greet
    recording:
      tools:
        - echo: { text: "hello {{args.user}}" }
`,
);
const context = { cwd: "/", env: {} };

test("each arg's value and where it came from; a secret's value is masked in the text itself", () => {
  const secrets = new Secrets({ token: "s3cret" });
  const listed = listTrail("greet.trail.yaml", trail, {}, undefined, context, {
    values: { user: 'ada "s3cret"', times: "5" },
    from: { user: "--args-file ci.yaml", times: "--arg" },
    secrets,
  });
  expect(listed.failed).toBe(false);
  expect(listed.text.split("\n")[3]).toBe(
    '  args: user = "ada \\"***\\"" (--args-file ci.yaml), times = 5 (--arg), note = "token is ***" (default)',
  );
  expect(listed.text).not.toContain("s3cret");
});

test("the problems `run` stops on are listed, and the trail is marked as one that would not start", () => {
  const listed = listTrail("greet.trail.yaml", trail, {}, undefined, context, {
    values: { times: "s3cret", colour: "red" },
    from: { times: "--arg", colour: "--arg" },
    secrets: new Secrets({ t: "s3cret" }),
  });
  expect(listed.failed).toBe(true);
  expect(listed.text.split("\n").slice(3, 7)).toEqual([
    '  args: user (required, not given), times = "***" (--arg), note = "token is ***" (default)',
    `  error: arg "colour" not declared in this trail's config.args (it declares note, times, user); declare it there, or leave it out of --arg and --args-file`,
    '  error: missing required arg "user" (declared in config.args: Who to greet); pass --arg user=VALUE',
    '  error: --arg times=***: config.args.times is an integer, got "***"',
  ]);
});

test("without given args, declared ones show their defaults and what is required", () => {
  const listed = listTrail("greet.trail.yaml", trail, {}, undefined, context);
  expect(listed.text.split("\n")[3]).toBe('  args: user (required, not given), times = 2 (default), note = "token is s3cret" (default)');
  expect(listed.failed).toBe(true);
});
