// A user's own reporter, `--reporter ./path/to/reporter.ts`: the module at that path (resolved
// against the working directory; TypeScript or JavaScript, imported by Bun as it is), whose
// default export is a class implementing the reporter interface, made with the reporter's options.
// Every way this fails is a ReporterLoadError naming the file (exit 2).

import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ReporterLoadError } from "../../errors.ts";
import type { Reporter, ReporterClass, ReporterOptions } from "../reporter.ts";

/** Whether `--reporter` names a file rather than a built-in: it holds a `/`, starts with `.`, or ends in .ts, .js or .mjs. */
export function isReporterPath(spec: string): boolean {
  return spec.includes("/") || spec.includes("\\") || spec.startsWith(".") || /\.(ts|js|mjs)$/.test(spec);
}

const EXAMPLE = "export default class MyReporter { onEnd(result) { … } }";

/** An import failure as one line: a syntax error with its file:line:col. */
function loadProblem(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(loadProblem).join("; ");
  const position = (error as { position?: { file?: string; line?: number; column?: number } | null }).position;
  const message = error instanceof Error ? error.message : String(error);
  return position?.file && position.line ? `${position.file}:${position.line}:${position.column ?? 0}: ${message}` : message;
}

function describe(value: unknown): string {
  if (value === undefined) return "no default export";
  if (value === null) return "null";
  if (typeof value === "function") return "a function that is not a class";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A class, as opposed to a plain or arrow function: what `new` may be used on, written `class`. */
function isClass(value: unknown): value is ReporterClass {
  return typeof value === "function" && /^class\b/.test(Function.prototype.toString.call(value));
}

/** Imports the reporter module at `spec` (as given, relative to `options.cwd`) and makes its reporter. */
export async function loadReporter(spec: string, options: ReporterOptions): Promise<Reporter> {
  const path = resolve(options.cwd, spec);
  if (!existsSync(path))
    throw new ReporterLoadError(
      spec,
      `file not found (resolved against ${options.cwd}: ${path}); relative paths resolve against the working directory`,
    );
  if (!statSync(path).isFile())
    throw new ReporterLoadError(spec, `${path} is not a file: name the reporter's module, e.g. ./reporters/my-reporter.ts`);
  let module: { default?: unknown };
  try {
    module = (await import(path)) as { default?: unknown };
  } catch (error) {
    throw new ReporterLoadError(spec, `does not load: ${loadProblem(error)}`, { cause: error });
  }
  const made = module.default;
  if (!isClass(made)) throw new ReporterLoadError(spec, `its default export is not a class (got ${describe(made)}); write \`${EXAMPLE}\``);
  try {
    return new made(options);
  } catch (error) {
    throw new ReporterLoadError(spec, `its constructor failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
