// Finds the Chromium that the real browser (web targets, report tests) runs on: a setting, then the system's.
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { BrowserNotFoundError } from "../errors.ts";

/** The variable that points at a Chromium (or Chrome) executable, ahead of any found on PATH. */
const CHROMIUM_VARIABLE = "TRAILBLAZE_CHROMIUM";

/** Executable names tried on PATH, in order: Debian's package first. */
const NAMES = ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"];

/**
 * The Chromium executable to launch: `$TRAILBLAZE_CHROMIUM` when set (it must exist), else the first of
 * chromium, chromium-browser, google-chrome on PATH. Throws BrowserNotFoundError saying what to install.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[CHROMIUM_VARIABLE];
  if (configured) {
    if (existsSync(configured)) return configured;
    throw new BrowserNotFoundError(
      `${CHROMIUM_VARIABLE}=${configured}: no such file. Point it at a Chromium or Chrome executable, or unset it to use chromium from PATH.`,
    );
  }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    for (const name of NAMES) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
  }
  throw new BrowserNotFoundError(
    `no Chromium found (looked for ${NAMES.join(", ")} on PATH). Install it (Debian/Ubuntu: sudo apt-get install chromium) or set ${CHROMIUM_VARIABLE} to a Chromium or Chrome executable.`,
  );
}
