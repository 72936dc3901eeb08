// Every repository path the docs name exists: README.md, ARCHITECTURE.md, BENCHMARKS.md and
// docs/*.md, walked for the paths in their code (inline spans and fenced blocks) and their
// relative links. The paths the README names are also in the package (package.json `files`),
// since the README is what an installed copy shows.
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

import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { REPO } from "./support/cli.ts";

const REPOSITORY_FOLDERS = ["src", "test", "fixtures", "docs", "bench", "runtime-quickjs", ".ci"];
const TOP_FILES = ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md", "package.json", "tsconfig.json", "bunfig.toml"];
/** Docs for working on trailblaze-ts, naming source files relative to src/. */
const SOURCE_DOCS = new Set(["ARCHITECTURE.md", "BENCHMARKS.md"]);
const SRC_FOLDERS = readdirSync(join(REPO, "src"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
/** README sections about a checkout of the repository, not the installed package. */
const CHECKOUT_SECTIONS = new Set(["Quick start", "Working on trailblaze-ts"]);
const DOCS = [
  "README.md",
  "ARCHITECTURE.md",
  "BENCHMARKS.md",
  ...readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

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

/** Whether the package (package.json `files`, as npm reads them: folders, files, `!` exclusions) holds `path`. */
function inPackage(path: string): boolean {
  const files = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { files: string[] }).files;
  const matches = (entry: string) => {
    if (entry.startsWith("**/")) return new RegExp(`${entry.slice(3).replace(/\./g, "\\.").replace(/\*/g, "[^/]*")}$`).test(path);
    const folder = entry.replace(/\/$/, "");
    return path === folder || path.startsWith(`${folder}/`);
  };
  const included = files.filter((e) => !e.startsWith("!")).some(matches) || path === "package.json";
  return included && !files.filter((e) => e.startsWith("!")).some((e) => matches(e.slice(1)));
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

  test("README.md: every repository path it names is in the package", () => {
    const outside = namedPaths("README.md").filter((named) => !CHECKOUT_SECTIONS.has(named.section) && !inPackage(named.path));
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
    expect(codePath("runtime-quickjs/thread/", true)).toBe("runtime-quickjs/thread");
    expect(codePath("core/log-layout.ts")).toBeUndefined();
    expect(slug("Upstream's layout (trails/config)")).toBe("upstreams-layout-trailsconfig");
    expect(inPackage("fixtures/demo/trails")).toBe(true);
    expect(inPackage("fixtures/web")).toBe(false);
    expect(inPackage("src/cli/args.test.ts")).toBe(false);
  });
});
