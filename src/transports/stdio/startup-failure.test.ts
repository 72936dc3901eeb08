import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { explainStartupFailure } from "./startup-failure.ts";

const root = mkdtempSync(join(tmpdir(), "startup-failure-"));
mkdirSync(join(root, "project", "tools", "deep"), { recursive: true });
writeFileSync(join(root, "project", "package.json"), "{}");
mkdirSync(join(root, "loose"));
const script = join(root, "project", "tools", "deep", "login.ts");
const hint = (pkg: string) => `Package "${pkg}" is not installed: run \`bun install\` in ${join(root, "project")}`;

test("bun: Cannot find package", () => {
  const tail = [`error: Cannot find package 'left-pad' from '${script}'`, "", "Bun v1.4.5 (Linux x64)"];
  expect(explainStartupFailure(tail, script)).toBe(hint("left-pad"));
});

test("bun: Cannot find module with a subpath names the package", () => {
  expect(explainStartupFailure([`error: Cannot find module '@scope/pkg/sub' from '${script}'`], script)).toBe(hint("@scope/pkg"));
  expect(explainStartupFailure([`error: Cannot find module 'pkg/a/b' from '${script}'`], script)).toBe(hint("pkg"));
});

test("node + tsx: ERR_MODULE_NOT_FOUND and CommonJS MODULE_NOT_FOUND", () => {
  const esm = [`Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from ${script}`];
  expect(explainStartupFailure(esm, script)).toBe(hint("zod"));
  const cjs = ["Error: Cannot find module 'zod'", "Require stack:", `- ${script}`];
  expect(explainStartupFailure(cjs, script)).toBe(hint("zod"));
});

test("without a package.json above the script, the script's folder is named", () => {
  const loose = join(root, "loose", "x.ts");
  expect(explainStartupFailure([`error: Cannot find package 'zod' from '${loose}'`], loose)).toBe(
    `Package "zod" is not installed: run \`bun install\` in ${join(root, "loose")}`,
  );
});

test("missing files and other failures are not install problems", () => {
  expect(explainStartupFailure([`error: Cannot find module './helper.ts' from '${script}'`], script)).toBeUndefined();
  expect(
    explainStartupFailure([`Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/x/helper.ts' imported from ${script}`], script),
  ).toBeUndefined();
  expect(explainStartupFailure(["TypeError: undefined is not a function"], script)).toBeUndefined();
  expect(explainStartupFailure([], script)).toBeUndefined();
});
