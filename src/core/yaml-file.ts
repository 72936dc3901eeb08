// A parsed YAML file that keeps source positions, so every problem found later
// can be reported at file:line:col of the node it is about.

import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { Document, Node as YamlNode } from "yaml";
import { ConfigError } from "../errors.ts";
import type { ConfigProblem } from "../errors.ts";

/** A place in a file: where a config entry, step or recorded call was written. */
export interface Where {
  file: string;
  /** 1-based */
  line: number;
  /** 1-based */
  col: number;
}

export type PathSegment = string | number;
export type FieldPath = readonly PathSegment[];

/**
 * Which node a problem points at: the `key` of the last segment (unknown keys),
 * its `value` (wrong types; falls back to the key when the value is empty), or
 * the `parent` map/list that holds it (missing required keys).
 */
export type Anchor = "key" | "value" | "parent";

export interface YamlFile {
  /** The file name used in messages, exactly as given. */
  file: string;
  text: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
  /** The document as plain JS (maps → objects, seqs → arrays); `null` for an empty file. */
  data: unknown;
}

/** `mcp_servers[0].script`; keys that are not identifiers are quoted: `env["A B"]`. */
export function formatPath(path: FieldPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/**
 * Parses YAML text keeping positions. Syntax errors (bad indentation, duplicate
 * keys, unclosed quotes, several documents, unknown aliases) throw one
 * ConfigError listing each at file:line:col.
 */
export function parseYaml(file: string, text: string): YamlFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const problems: ConfigProblem[] = [];
  const seenLines = new Set<number>();
  for (const error of doc.errors) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    if (seenLines.has(line)) continue; // one cause often yields several errors on a line
    seenLines.add(line);
    problems.push({
      file,
      line,
      col,
      path: "",
      message: `YAML syntax error: ${syntaxMessage(error.code, error.message, text, error.pos)}`,
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 1000 }) ?? null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError([{ file, line: 1, col: 1, path: "", message: `YAML error: ${message}` }], { cause: error });
  }
  return { file, text, doc, lineCounter, data };
}

function syntaxMessage(code: string, message: string, text: string, pos: [number, number]): string {
  if (code === "DUPLICATE_KEY") {
    const key = text.slice(pos[0], pos[1]).trim();
    return `duplicate key${key ? ` "${key}"` : ""}; keys must be unique within a map`;
  }
  if (code === "MULTIPLE_DOCS") return "the file holds several YAML documents (---); put one document per file";
  if (code === "TAB_AS_INDENT") return "tabs are not allowed as indentation; indent with spaces";
  return message.endsWith(".") ? message.slice(0, -1) : message;
}

function resolve(yaml: YamlFile, node: unknown): unknown {
  return isAlias(node) ? node.resolve(yaml.doc) : node;
}

interface Found {
  key?: YamlNode;
  value?: YamlNode;
  parent?: YamlNode;
}

/** Walks the document along `path`, as far as the nodes exist. */
function walk(yaml: YamlFile, path: FieldPath): { found: Found; complete: boolean } {
  let current = resolve(yaml, yaml.doc.contents) as YamlNode | null | undefined;
  let found: Found = current ? { value: current } : {};
  for (const segment of path) {
    current = found.value ? (resolve(yaml, found.value) as YamlNode) : undefined;
    if (isMap(current)) {
      const pair = current.items.find((p) => isPair(p) && keyText(resolve(yaml, p.key)) === String(segment));
      if (!pair) return { found: { parent: current }, complete: false };
      found = { parent: current, key: pair.key as YamlNode, value: (pair.value ?? undefined) as YamlNode | undefined };
    } else if (isSeq(current) && typeof segment === "number") {
      const item = current.items[segment] as YamlNode | undefined;
      if (item === undefined) return { found: { parent: current }, complete: false };
      found = { parent: current, value: item };
    } else {
      return { found: { parent: found.value ?? found.parent }, complete: false };
    }
  }
  return { found, complete: true };
}

function keyText(node: unknown): string | undefined {
  if (isScalar(node)) return String(node.value);
  return undefined;
}

function start(node: YamlNode | undefined): number | undefined {
  return node?.range?.[0];
}

function hasContent(node: YamlNode | undefined): boolean {
  if (!node?.range) return false;
  if (isScalar(node) && node.value === null && node.range[0] === node.range[1]) return false;
  return true;
}

/** The 1-based line/col of the node `path` points at (see Anchor); 1:1 when nothing better exists. */
export function locate(yaml: YamlFile, path: FieldPath, anchor: Anchor = "value"): Where {
  const { found, complete } = walk(yaml, path);
  let offset: number | undefined;
  if (!complete || anchor === "parent") offset = start(found.parent);
  else if (anchor === "key") offset = start(found.key) ?? start(found.value) ?? start(found.parent);
  else offset = hasContent(found.value) ? start(found.value) : (start(found.key) ?? start(found.value) ?? start(found.parent));
  if (offset === undefined) return { file: yaml.file, line: 1, col: 1 };
  const { line, col } = yaml.lineCounter.linePos(offset);
  return { file: yaml.file, line, col };
}

/**
 * A problem at `path`. `shownPath` is the path printed before the message
 * (defaults to `path`; missing-key and unknown-key problems print the parent's).
 */
export function problemAt(yaml: YamlFile, path: FieldPath, anchor: Anchor, message: string, shownPath: FieldPath = path): ConfigProblem {
  const where = locate(yaml, path, anchor);
  return { file: where.file, line: where.line, col: where.col, path: formatPath(shownPath), message };
}

/** The raw source text of a scalar at `path` (e.g. `007` where the value parsed as 7). */
export function sourceText(yaml: YamlFile, path: FieldPath): string | undefined {
  const { found, complete } = walk(yaml, path);
  const node = complete ? resolve(yaml, found.value) : undefined;
  return isScalar(node) && typeof node.source === "string" ? node.source : undefined;
}
