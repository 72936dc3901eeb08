import { expect, test } from "bun:test";
import { COMMANDS } from "./cli.ts";
import { invocationOf, renderCommands } from "./invocation.ts";

const NPM = "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false";
const BUN = "bun/1.4.5 npm/? node/v26.3.0 linux x64";

test.each([
  [
    "npx trailblaze",
    { npm_command: "exec", npm_lifecycle_event: "npx", npm_config_user_agent: NPM },
    { cli: "npx trailblaze", bun: "npx bun" },
  ],
  [
    "bunx trailblaze",
    { npm_command: "exec", npm_lifecycle_event: "bunx", npm_config_user_agent: BUN },
    { cli: "bunx trailblaze", bun: "bun" },
  ],
  ["bun trailblaze (the installed bin)", { npm_command: "run-script", npm_config_user_agent: BUN }, { cli: "bun trailblaze", bun: "bun" }],
  [
    "bun trailblaze (this repository's script)",
    { npm_command: "run-script", npm_lifecycle_event: "trailblaze", npm_config_user_agent: BUN },
    { cli: "bun trailblaze", bun: "bun" },
  ],
  [
    "npm run trailblaze",
    { npm_command: "run", npm_lifecycle_event: "trailblaze", npm_config_user_agent: NPM },
    { cli: "npm run trailblaze --", bun: "npx bun" },
  ],
  ["trailblaze from PATH", { TRAILBLAZE_LAUNCHED_AS: "trailblaze" }, { cli: "trailblaze", bun: "npx bun" }],
  [
    "./node_modules/.bin/trailblaze",
    { TRAILBLAZE_LAUNCHED_AS: "./node_modules/.bin/trailblaze" },
    { cli: "npx trailblaze", bun: "npx bun" },
  ],
  [
    "an npm script that calls trailblaze",
    {
      npm_command: "run",
      npm_lifecycle_event: "trails",
      npm_config_user_agent: NPM,
      TRAILBLAZE_LAUNCHED_AS: "/p/node_modules/.bin/trailblaze",
    },
    { cli: "npx trailblaze", bun: "npx bun" },
  ],
])("%s", (_how, env, expected) => {
  expect(invocationOf(env)).toEqual(expected);
});

test("commands are rendered in the user's words; prose and file names are not", () => {
  const invocation = { cli: "npx trailblaze", bun: "npx bun" };
  expect(renderCommands("Run `trailblaze tools --help`; then bun test a.test.ts.\nUsage: trailblaze <command>", invocation)).toBe(
    "Run `npx trailblaze tools --help`; then npx bun test a.test.ts.\nUsage: npx trailblaze <command>",
  );
  expect(renderCommands("the trailblaze CLI, trailblaze-ts, @trailblaze/scripting, trailblaze.tool, trailblaze with bun", invocation)).toBe(
    "the trailblaze CLI, trailblaze-ts, @trailblaze/scripting, trailblaze.tool, trailblaze with bun",
  );
  for (const { name } of COMMANDS) expect(renderCommands(`trailblaze ${name} x`, invocation)).toBe(`npx trailblaze ${name} x`);
});
