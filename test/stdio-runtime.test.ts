// Runtime detection against real PATH layouts: temp dirs holding only the executables under test.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RuntimeNotFoundError } from "../src/errors.ts";
import { detectRuntime, findOnPath } from "../src/transports/stdio/runtime.ts";
import { rejection } from "./support/rejection.ts";

/** These tests are about the PATH search: the bun running them is not a candidate. */
const NO_RUNNING_BUN = { runningBun: null };

const root = mkdtempSync(join(tmpdir(), "stdio-runtime-"));
const nodeBinary = await findOnPath("node", process.env.PATH ?? "");
if (!nodeBinary) throw new Error("these tests need node on PATH");

function dirWith(name: string, links: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(dir);
  for (const [link, target] of Object.entries(links)) symlinkSync(target, join(dir, link));
  return dir;
}
const bunOnly = dirWith("bun-only", { bun: process.execPath });
const nodeOnly = dirWith("node-only", { node: nodeBinary });
const empty = dirWith("empty", {});
const tsxLoader = pathToFileURL(createRequire(import.meta.filename).resolve("tsx")).href;
const script = "fixtures/stdio/echo.ts";

describe("detectRuntime", () => {
  test("prefers bun on PATH and runs the file with bun run --no-install --no-orphans", async () => {
    const runtime = await detectRuntime({ PATH: [bunOnly, nodeOnly].join(delimiter) });
    expect(runtime.kind).toBe("bun");
    expect(runtime.command).toBe(join(bunOnly, "bun"));
    expect(runtime.argsFor(script)).toEqual(["run", "--no-install", "--no-orphans", resolve(script)]);
  });

  test("falls back to node with the tsx installed next to trailblaze-ts, by absolute URL", async () => {
    const runtime = await detectRuntime({ PATH: nodeOnly }, NO_RUNNING_BUN);
    expect(runtime.kind).toBe("node");
    expect(runtime.command).toBe(join(nodeOnly, "node"));
    expect(runtime.argsFor(script)).toEqual(["--import", tsxLoader, resolve(script)]);
  });

  test("finds tsx on PATH when it is not installed next to trailblaze-ts", async () => {
    const tsxBin = dirWith("tsx-bin", { tsx: resolve("node_modules/tsx/dist/cli.mjs") });
    const runtime = await detectRuntime({ PATH: [nodeOnly, tsxBin].join(delimiter) }, { resolveTsxFrom: empty, runningBun: null });
    expect(runtime.argsFor(script)).toEqual(["--import", tsxLoader, resolve(script)]);
  });

  test("node without tsx: suggests installing tsx", async () => {
    const error = await rejection(detectRuntime({ PATH: nodeOnly }, { resolveTsxFrom: empty, runningBun: null }));
    expect(error).toBeInstanceOf(RuntimeNotFoundError);
    expect(error.message).toBe(
      `Found node at ${join(nodeOnly, "node")} but no TypeScript loader: tsx is neither installed next to trailblaze-ts nor on PATH. ` +
        "Install it with `npm install -g tsx`, or install bun (https://bun.sh).",
    );
  });

  test("neither bun nor node: the exact error", async () => {
    for (const env of [{ PATH: empty }, {}]) {
      const error = await rejection(detectRuntime(env, NO_RUNNING_BUN));
      expect(error).toBeInstanceOf(RuntimeNotFoundError);
      expect(error.message).toBe("No compatible TypeScript runtime found on PATH. Install bun (https://bun.sh) or Node with tsx.");
      expect((error as RuntimeNotFoundError).exitCode).toBe(2);
    }
  });

  test("skips a file called bun that is not executable", async () => {
    const dir = join(root, "not-executable");
    mkdirSync(dir);
    writeFileSync(join(dir, "bun"), "#!/bin/sh\n");
    chmodSync(join(dir, "bun"), 0o644);
    const runtime = await detectRuntime({ PATH: [dir, nodeOnly].join(delimiter) }, NO_RUNNING_BUN);
    expect(runtime.kind).toBe("node");
  });

  test("TRAILBLAZE_RUNTIME forces a runtime", async () => {
    const both = [bunOnly, nodeOnly].join(delimiter);
    expect((await detectRuntime({ PATH: both, TRAILBLAZE_RUNTIME: "node" }, NO_RUNNING_BUN)).kind).toBe("node");
    expect((await detectRuntime({ PATH: both, TRAILBLAZE_RUNTIME: "bun" }, NO_RUNNING_BUN)).kind).toBe("bun");
    expect((await detectRuntime({ PATH: both, TRAILBLAZE_RUNTIME: "" }, NO_RUNNING_BUN)).kind).toBe("bun");
  });

  test("TRAILBLAZE_RUNTIME errors name the variable", async () => {
    expect((await rejection(detectRuntime({ PATH: nodeOnly, TRAILBLAZE_RUNTIME: "bun" }, NO_RUNNING_BUN))).message).toBe(
      "TRAILBLAZE_RUNTIME=bun but bun was not found on PATH (and this process does not run under bun). Install bun (https://bun.sh) or unset TRAILBLAZE_RUNTIME.",
    );
    expect((await rejection(detectRuntime({ PATH: bunOnly, TRAILBLAZE_RUNTIME: "node" }, NO_RUNNING_BUN))).message).toBe(
      "TRAILBLAZE_RUNTIME=node but node was not found on PATH. Install Node (https://nodejs.org) or unset TRAILBLAZE_RUNTIME.",
    );
    expect((await rejection(detectRuntime({ PATH: bunOnly, TRAILBLAZE_RUNTIME: "deno" }, NO_RUNNING_BUN))).message).toBe(
      'TRAILBLAZE_RUNTIME must be "bun" or "node" (or unset), got "deno"',
    );
  });

  test("is cached per PATH", async () => {
    const first = await detectRuntime({ PATH: bunOnly }, NO_RUNNING_BUN);
    expect(await detectRuntime({ PATH: bunOnly, HOME: "/elsewhere" }, NO_RUNNING_BUN)).toBe(first);
    expect(await detectRuntime({ PATH: [bunOnly, empty].join(delimiter) }, NO_RUNNING_BUN)).not.toBe(first);
  });
});

describe("the bun running this process", () => {
  test("runs the servers when no bun is on PATH, before any node fallback", async () => {
    const runtime = await detectRuntime({ PATH: nodeOnly }, { runningBun: process.execPath });
    expect({ kind: runtime.kind, command: runtime.command }).toEqual({ kind: "bun", command: process.execPath });
    expect((await detectRuntime({ PATH: nodeOnly, TRAILBLAZE_RUNTIME: "bun" }, { runningBun: process.execPath })).command).toBe(
      process.execPath,
    );
  });

  test("a node fallback says so (fellBack); a forced node does not", async () => {
    expect((await detectRuntime({ PATH: nodeOnly }, NO_RUNNING_BUN)).fellBack).toBe(true);
    expect((await detectRuntime({ PATH: nodeOnly, TRAILBLAZE_RUNTIME: "node" }, NO_RUNNING_BUN)).fellBack).toBe(false);
  });
});
