// The other QuickJS engine stays usable: the on-device suites run again under it, in a child
// `bun test` with TRAILBLAZE_QUICKJS set (engine-dependent expectations are in support/quickjs-engine.ts).
// Left out of that run: the transport contract's stdio cases (no QuickJS in them) and the debug
// build's test (the debug build is Bellard QuickJS's whatever the engine: quickjs-module.ts).
import { expect, test } from "bun:test";
import { REPO, TEST_PATH } from "./support/cli.ts";
import { DEFAULT_QUICKJS_ENGINE, QUICKJS_ENGINES } from "../runtime-quickjs/index.ts";

/** Test names (`describe > test`, space-joined) the child runs: all but those that do not use the engine. */
const USES_QUICKJS = "^(?!transport contract: stdio |with the debug build of QuickJS )";
const ON_DEVICE_SUITES = [
  "test/transport-contract.test.ts",
  "test/quickjs-faults.test.ts",
  "test/quickjs-server.test.ts",
  "test/on-device-session.test.ts",
  "test/scripting-parity.test.ts",
  "test/bundle-check.test.ts",
  "test/bundle-check-api.test.ts",
];

test("the on-device suites pass on the engine that is not the default", async () => {
  const other = QUICKJS_ENGINES.find((engine) => engine !== DEFAULT_QUICKJS_ENGINE)!;
  const child = Bun.spawn([process.execPath, "test", "--timeout", "30000", "--test-name-pattern", USES_QUICKJS, ...ON_DEVICE_SUITES], {
    cwd: REPO,
    env: { ...process.env, PATH: TEST_PATH, TRAILBLAZE_QUICKJS: other },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  const failures = stderr.split("\n").filter((line) => line.startsWith("(fail)"));
  expect({ engine: other, code, failures }).toEqual({ engine: other, code: 0, failures: [] });
  expect(stderr).toMatch(/\n\s*\d+ pass\n\s*\d+ filtered out\n\s*0 fail\n/);
  expect(stderr).toContain("(pass) transport contract: quickjs > ");
  expect(stderr).not.toContain("(pass) transport contract: stdio > ");
  expect(stderr).toContain("(pass) a handler that runs past the deadline > ");
}, 180_000);
