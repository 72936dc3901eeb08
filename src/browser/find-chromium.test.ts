import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BrowserNotFoundError } from "../errors.ts";
import { findChromium } from "./find-chromium.ts";

describe("findChromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "find-chromium-"));
  const fake = join(dir, "chromium-browser");
  writeFileSync(fake, "#!/bin/sh\n");
  chmodSync(fake, 0o755);

  test("takes TRAILBLAZE_CHROMIUM first", () => {
    expect(findChromium({ TRAILBLAZE_CHROMIUM: fake, PATH: "" })).toBe(fake);
  });

  test("a TRAILBLAZE_CHROMIUM that does not exist is an error naming it", () => {
    expect(() => findChromium({ TRAILBLAZE_CHROMIUM: join(dir, "nope"), PATH: dir })).toThrow(
      `TRAILBLAZE_CHROMIUM=${join(dir, "nope")}: no such file`,
    );
  });

  test("finds a chromium on PATH", () => {
    expect(findChromium({ PATH: `/nonexistent:${dir}` })).toBe(fake);
  });

  test("none found: the error names the Debian package and the variable", () => {
    let error: unknown;
    try {
      findChromium({ PATH: "/nonexistent" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BrowserNotFoundError);
    expect((error as Error).message).toContain("sudo apt-get install chromium");
    expect((error as Error).message).toContain("TRAILBLAZE_CHROMIUM");
  });
});
