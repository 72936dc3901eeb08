// Every repository path the docs name exists: README.md, ARCHITECTURE.md, BENCHMARKS.md and
// docs/*.md, walked for the paths in their code (inline spans and fenced blocks) and their
// relative links. The paths the README and docs/ name are also in the package as npm packs it
// (`npm pack --dry-run`), since they are what an installed copy shows its user (ARCHITECTURE.md
// and BENCHMARKS.md are for working on trailblaze-ts in a checkout; the README's sections about a
// checkout, and a user's own package.json or tsconfig.json, are left out).
//
// What counts as a repository path: a relative link (`[text](docs/cli.md#reports)`, resolved
// against the doc's folder), and in code, a word that starts with one of the repository's own
// folders (src/, test/, fixtures/, docs/, bench/, runtime-quickjs/, .ci/) or is one of its
// top-level files (README.md, package.json, …); in the docs for working on trailblaze-ts
// (ARCHITECTURE.md, BENCHMARKS.md), which name source files from src/ (`core/log-layout.ts`), also
// a word that starts with a folder of src/ and names a .ts file or a folder. Paths in a user's workspace (trails/, tools/,
// maps/, trailblaze-config/, logs/, .cache/ …) are examples, not checked; so are placeholders
// (`<id>`, `…`, `NAME`) — a path with a glob (`*`) or a placeholder is checked up to the folder
// before it.

import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { REPO } from "./support/cli.ts";

const REPOSITORY_FOLDERS = ["src", "test", "fixtures", "docs", "bench", "runtime-quickjs", ".ci"];
const TOP_FILES = ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md", "package.json", "tsconfig.json", "bunfig.toml"];
/** Top-level files a user's workspace has its own of: in the user's docs they name those, not ours. */
const WORKSPACE_FILES = new Set(["package.json", "tsconfig.json", "bunfig.toml"]);
/** Docs for working on trailblaze-ts, naming source files relative to src/. */
const SOURCE_DOCS = new Set(["ARCHITECTURE.md", "BENCHMARKS.md"]);
const SRC_FOLDERS = readdirSync(join(REPO, "src"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
/** README sections about a checkout of the repository, not the installed package. */
const CHECKOUT_SECTIONS = new Set(["Quick start", "Working on trailblaze-ts"]);
/** The docs a user of the package reads (ARCHITECTURE.md and BENCHMARKS.md are for working on trailblaze-ts, in a checkout). */
const USER_DOCS = [
  "README.md",
  ...readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const DOCS = [...USER_DOCS, "ARCHITECTURE.md", "BENCHMARKS.md"];

interface Named {
  doc: string;
  line: number;
  /** The `## ` heading it is under. */
  section: string;
  /** As written. */
  text: string;
  /** Repository-relative, cut before any glob or placeholder. */
  path: string;
}

/** The repository path a code word names, or undefined when it names none. */
function codePath(word: string, fromSrc = false): string | undefined {
  const bare = word
    .replace(/^[("'[{]+/, "")
    .replace(/^\.\//, "")
    .replace(/[)"'\]},;.]+$/, "")
    .replace(/:\d+(?::\d+)?$/, "") // file:line:col
    .replace(/#.*$/, "");
  const first = bare.split("/")[0]!;
  if (fromSrc && SRC_FOLDERS.includes(first) && /\/(?:[^/]*\.ts)?$/.test(bare)) return codePath(`src/${bare}`);
  if (!(REPOSITORY_FOLDERS.includes(first) && bare.includes("/")) && !TOP_FILES.includes(bare)) return undefined;
  // Up to the first segment that is a glob or a placeholder.
  const kept: string[] = [];
  for (const segment of bare.split("/")) {
    if (/[*<>{}…|$]|\.\.\.|^[A-Z][A-Z_]+$/.test(segment)) break;
    kept.push(segment);
  }
  return kept.join("/").replace(/\/$/, "");
}

/** Every repository path `doc` names, with its line. */
function namedPaths(doc: string): Named[] {
  const found: Named[] = [];
  const lines = readFileSync(join(REPO, doc), "utf8").split("\n");
  let fenced = false;
  let section = "";
  lines.forEach((text, i) => {
    const line = i + 1;
    if (!fenced && text.startsWith("## ")) section = text.slice(3).trim();
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      return;
    }
    const code = fenced ? [text] : [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    for (const span of code) {
      for (const word of span.split(/[\s=,]+/)) {
        const path = codePath(word, SOURCE_DOCS.has(doc));
        if (path) found.push({ doc, line, section, text: word, path });
      }
    }
    if (fenced) return;
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(?:[a-z]+:|#)/.test(target!)) continue;
      const path = normalize(join(dirname(doc), target!.replace(/#.*$/, "")));
      found.push({ doc, line, section, text: target!, path: relative(".", path) });
    }
  });
  return found;
}

/** The files of the package as npm packs it (`npm pack --dry-run --json`): what an installed copy holds. */
async function packedFiles(): Promise<Set<string>> {
  const child = Bun.spawn(["npm", "pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`npm pack --dry-run failed (exit ${code}, signal ${child.signalCode}): ${stderr.slice(-400)}`);
  const [pack] = JSON.parse(stdout) as [{ files: { path: string }[] }];
  return new Set(pack.files.map((file) => file.path));
}

let packed = new Set<string>();
// Once for the file: npm takes some seconds to list the package.
beforeAll(async () => {
  packed = await packedFiles();
}, 120_000);

/** Whether the packed package holds `path`: a file of it, or a folder some file of it is in. */
function inPackage(path: string): boolean {
  if (packed.has(path)) return true;
  for (const file of packed) if (file.startsWith(`${path}/`)) return true;
  return false;
}

const shown = (named: Named) => `${named.doc}:${named.line}: ${named.text}`;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The anchors of a Markdown file's headings (outside fenced blocks). */
function anchorsOf(doc: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(join(REPO, doc), "utf8").split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced && /^#{1,6} /.test(line)) anchors.add(slug(line.replace(/^#+ /, "").replace(/`/g, "")));
  }
  return anchors;
}

/** Every `[text](file.md#anchor)` or `[text](#anchor)` of `doc` whose heading is not there. */
function brokenAnchors(doc: string): string[] {
  const broken: string[] = [];
  let fenced = false;
  readFileSync(join(REPO, doc), "utf8")
    .split("\n")
    .forEach((text, i) => {
      if (/^\s*```/.test(text)) fenced = !fenced;
      if (fenced) return;
      for (const [, file, anchor] of text.matchAll(/\]\(((?!(?:[a-z]+:))[^)\s#]*\.md|)#([^)\s]+)\)/g)) {
        const target = file === "" ? doc : relative(".", normalize(join(dirname(doc), file!)));
        if (existsSync(join(REPO, target)) && !anchorsOf(target).has(anchor!)) broken.push(`${doc}:${i + 1}: ${file}#${anchor}`);
      }
    });
  return broken;
}

describe("docs name only paths that exist", () => {
  test.each(DOCS)("%s: every repository path it names exists", (doc) => {
    const missing = namedPaths(doc).filter((named) => !existsSync(join(REPO, named.path)));
    expect(missing.map(shown)).toEqual([]);
  });

  test.each(DOCS)("%s: every link to a heading finds it", (doc) => {
    expect(brokenAnchors(doc)).toEqual([]);
  });

  // The README and docs/ are what an installed copy shows its user: what they point at is there too.
  test.each(USER_DOCS)("%s: every repository path it names is in the packed package", (doc) => {
    const outside = namedPaths(doc).filter(
      (named) => !CHECKOUT_SECTIONS.has(named.section) && !WORKSPACE_FILES.has(named.path) && !inPackage(named.path),
    );
    expect(outside.map(shown)).toEqual([]);
  });

  test("the rule finds what it should, and leaves out a workspace's paths", () => {
    expect(codePath("fixtures/demo/")).toBe("fixtures/demo");
    expect(codePath("src/core/log-layout.ts:41:5")).toBe("src/core/log-layout.ts");
    expect(codePath("fixtures/demo/trails/*.trail.yaml")).toBe("fixtures/demo/trails");
    expect(codePath("docs/formats.md#exit-codes")).toBe("docs/formats.md");
    expect(codePath("trails/login.trail.yaml")).toBeUndefined();
    expect(codePath("tools/myapp/login.ts")).toBeUndefined();
    expect(codePath("core/log-layout.ts", true)).toBe("src/core/log-layout.ts");
    expect(codePath("runtime-quickjs/guest/", true)).toBe("runtime-quickjs/guest");
    expect(codePath("core/log-layout.ts")).toBeUndefined();
    expect(slug("Upstream's layout (trails/config)")).toBe("upstreams-layout-trailsconfig");
    expect(inPackage("fixtures/demo/trails")).toBe(true);
    expect(inPackage("fixtures/demo/trails/login.trail.yaml")).toBe(true);
    expect(inPackage("fixtures/demo/logs")).toBe(false);
    expect(inPackage("test/support")).toBe(false);
    expect(inPackage("src/cli/args.test.ts")).toBe(false);
  });
});
