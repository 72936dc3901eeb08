// `run --device P` is refused (exit 2, before any trail starts) when the trail's target declares
// platforms without P, naming the target, its platforms and its file.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { cli, REPO } from "./support/cli.ts";

const FAULTS = join(REPO, "fixtures/faults");
const TRAIL = join(REPO, "fixtures/exit-codes/trails/any.trail.yaml");

test("--device web (or desktop, a web device) for an android-only target: exit 2 naming its platforms; --device android runs", async () => {
  const run = (device: string) =>
    cli(["run", TRAIL, "--target", "crashBetween", "--device", device, "--no-logging"], {
      cwd: FAULTS,
      env: { TRAILBLAZE_NAMING_WARNINGS: "off" },
    });
  const fix = "(platforms: in trailblaze-config/targets/crashBetween.yaml); name one of those, or add web to the target\n";
  expect(await run("web,android")).toEqual({
    code: 2,
    stdout: "",
    stderr: `error: run: --device web: target crashBetween has no web platform, only android ${fix}`,
  });
  expect(await run("desktop")).toEqual({
    code: 2,
    stdout: "",
    stderr: `error: run: --device desktop (a web device): target crashBetween has no web platform, only android ${fix}`,
  });
  const android = await run("android");
  expect(android.code).toBe(0);
  expect(android.stdout).toContain("1 passed, 0 failed (1 trail)");
});
