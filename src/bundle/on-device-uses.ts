// What a bundle does that the on-device guest cannot, read from its syntax tree (acorn, with
// eslint-scope telling globals from the bundle's own bindings) and decided with the guest's real
// globals: each use of a global the guest lacks (reading it, calling or constructing
// `globalThis.X`) or of a static method one of its globals lacks (`Error.captureStackTrace`),
// each `require()` esbuild left and each dynamic `import()`, and each call that passes a locale
// the guest ignores. A use in a branch that is not taken on-device, or caught by a
// `try`, is left out (on-device-reach.ts); so is a global the bundle defines itself (a polyfill).
import { parse, type AnyNode, type Node, type Program, type Statement } from "acorn";
import { fullAncestor } from "acorn-walk";
import { analyze, type Reference } from "eslint-scope";
import { evaluate, globalThisProperty, guestGlobalName, staticProperty, type NameFacts } from "./guard-value.ts";
import { reachOnDevice } from "./on-device-reach.ts";

export interface OnDeviceUse {
  /**
   * `fetch`, `process.env`, `globalThis.fetch`, `Error.captureStackTrace`, `require`, `import()`; for
   * a locale call, the call (`toLocaleString("de-DE")`); for a branch that throws, its condition.
   */
  name: string;
  kind: "missing" | "require" | "import" | "locale" | "throws";
  /** Where it is in the bundle: 1-based line, 0-based column. */
  line: number;
  column: number;
  /** The condition (its text) that decides whether it runs, when the scan cannot tell. */
  undecided?: string;
}

/**
 * Methods whose locale and options the guest ignores (QuickJS has no Intl), with the index of the
 * locale argument: a call that passes one gets the guest's fixed format instead of the host's.
 */
const LOCALE_ARGUMENT = new Map([
  ["toLocaleString", 0],
  ["toLocaleDateString", 0],
  ["toLocaleTimeString", 0],
  ["toLocaleUpperCase", 0],
  ["toLocaleLowerCase", 0],
  ["localeCompare", 1],
]);

/** esbuild's stand-in for a `require(x)` it could not bundle: it throws at run time. */
const REQUIRE_SHIM = "__require";
const SHOWN_CHARACTERS = 60;

/** The bundle's text of `node`, on one line and cut short. */
function textOf(code: string, node: Node): string {
  const text = code.slice(node.start, node.end).replace(/\s+/g, " ");
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS - 1)}…` : text;
}

/** The 1-based line and 0-based column of an offset in `code`. */
function lineIndex(code: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let at = code.indexOf("\n"); at !== -1; at = code.indexOf("\n", at + 1)) starts.push(at + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - starts[low]! };
  };
}

/** The reference eslint-scope made of each identifier, and what it tells about bindings. */
function nameFacts(program: Program, guest: ReadonlyMap<string, string>): { facts: NameFacts; references: Map<Node, Reference> } {
  const scopes = analyze(program as unknown as Parameters<typeof analyze>[0], { ecmaVersion: 2022, sourceType: "module" });
  const references = new Map<Node, Reference>();
  for (const scope of scopes.scopes)
    for (const reference of scope.references) references.set(reference.identifier as unknown as Node, reference);
  const constants = new Map<Node, Node | undefined>();
  const facts: NameFacts = {
    guest,
    isGlobal: (id) => {
      const reference = references.get(id);
      return reference !== undefined && reference.resolved === null;
    },
    constantOf: (id) => {
      const variable = references.get(id)?.resolved;
      if (!variable) return undefined;
      const key = variable.identifiers[0] as unknown as Node | undefined;
      if (key === undefined) return undefined;
      if (!constants.has(key)) {
        const [def] = variable.defs;
        const writes = variable.references.filter((reference) => reference.isWrite()).length;
        const init = def?.type === "Variable" && variable.defs.length === 1 && writes === 1 ? def.node.init : null;
        constants.set(key, (init as unknown as Node | null) ?? undefined);
      }
      return constants.get(key);
    },
  };
  return { facts, references };
}

/** Every way through it ends in a `throw`. */
function alwaysThrows(statement: Statement | null | undefined): boolean {
  if (!statement) return false;
  if (statement.type === "ThrowStatement") return true;
  if (statement.type === "BlockStatement") return statement.body.some((inner) => inner.type === "ThrowStatement");
  return statement.type === "IfStatement" && alwaysThrows(statement.consequent) && alwaysThrows(statement.alternate);
}

/** A read of `globalThis.X` that throws when X is missing: calling it, constructing it, reading through it. */
function throwsWhenMissing(member: Node, parent: AnyNode | undefined): boolean {
  if (!parent) return false;
  if (parent.type === "CallExpression" || parent.type === "NewExpression")
    return parent.callee === member && !("optional" in parent && parent.optional);
  if (parent.type === "MemberExpression") return parent.object === member && !parent.optional;
  return parent.type === "TaggedTemplateExpression" && parent.tag === member;
}

/** Uses, in bundle order, that run on-device (or may: `undecided`). */
export function onDeviceUses(code: string, guest: ReadonlyMap<string, string>): OnDeviceUse[] {
  // Ranges for eslint-scope; lines and columns are worked out only for the uses found (positionOf).
  const program = parse(code, { ecmaVersion: 2022, sourceType: "module", ranges: true });
  const positionOf = lineIndex(code);
  const { facts, references } = nameFacts(program, guest);
  const uses: (OnDeviceUse & { global?: string })[] = [];
  /** Globals the bundle assigns (`globalThis.X = …`, a global written to) where that assignment runs on-device. */
  const defined = new Set<string>();
  const missing = (name: string) => !guest.has(name);

  const add = (node: Node, ancestors: readonly Node[], use: Omit<OnDeviceUse, "line" | "column" | "undecided">, global?: string) => {
    const reach = reachOnDevice(ancestors, facts, use.kind !== "import");
    if (!reach.runs) return;
    uses.push({
      ...use,
      ...positionOf(node.start),
      ...("undecided" in reach ? { undecided: textOf(code, reach.undecided) } : {}),
      ...(global ? { global } : {}),
    });
  };
  const defines = (name: string, ancestors: readonly Node[]) => {
    if (reachOnDevice(ancestors, facts).runs) defined.add(name);
  };

  fullAncestor(program, (node, _state, ancestors) => {
    const n = node as AnyNode;
    const parent = ancestors[ancestors.length - 2] as AnyNode | undefined;
    if (n.type === "Identifier") {
      const reference = references.get(n);
      if (!reference || reference.resolved !== null || !missing(n.name)) return;
      if (reference.isWrite()) return defines(n.name, ancestors);
      // `typeof X` of a missing global is "undefined", no error.
      if (parent?.type === "UnaryExpression" && parent.operator === "typeof") return;
      // Named with what it reads through it: `process.env`, `crypto.getRandomValues`.
      const member = parent?.type === "MemberExpression" && parent.object === n ? staticProperty(parent) : undefined;
      add(n, ancestors, { name: member === undefined ? n.name : `${n.name}.${member}`, kind: "missing" }, n.name);
    } else if (n.type === "MemberExpression") {
      // `globalThis.X`, or `G.x` of a global G the guest has: X (or `G.x`) when the guest lacks it.
      const property = globalThisProperty(n, facts);
      const owner = property === undefined ? guestGlobalName(n.object, facts) : undefined;
      const member = owner === undefined ? undefined : staticProperty(n);
      const name = property ?? (member === undefined ? undefined : `${owner}.${member}`);
      if (name === undefined || !missing(name)) return;
      if (parent?.type === "AssignmentExpression" && parent.left === n) return defines(name, ancestors);
      if (throwsWhenMissing(n, parent))
        add(n, ancestors, { name: property === undefined ? name : `globalThis.${name}`, kind: "missing" }, name);
    } else if (n.type === "CallExpression") {
      const callee = n.callee;
      if (callee.type === "Identifier" && callee.name === REQUIRE_SHIM && !facts.isGlobal(callee)) {
        add(n, ancestors, { name: "require", kind: "require" });
      } else if (callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier") {
        const method = callee.property.name;
        // Object.defineProperty(globalThis, "X", …) defines X; Object.defineProperty(G, "x", …), G.x.
        const [target, key] = n.arguments;
        if (method === "defineProperty" && target && key?.type === "Literal" && typeof key.value === "string") {
          const owner =
            target.type === "Identifier" && target.name === "globalThis" && facts.isGlobal(target) ? "" : guestGlobalName(target, facts);
          if (owner !== undefined) defines(owner ? `${owner}.${key.value}` : key.value, ancestors);
        }
        const locale = LOCALE_ARGUMENT.get(method);
        if (locale !== undefined && n.arguments.length > locale) {
          add(n, ancestors, { name: `${method}(${n.arguments.map((argument) => textOf(code, argument)).join(", ")})`, kind: "locale" });
        }
      }
    } else if (n.type === "IfStatement") {
      // A feature test whose branch on-device throws: `if (typeof fetch !== "function") throw …`.
      const test = evaluate(n.test, facts);
      const taken = test.truthy === undefined ? undefined : test.truthy ? n.consequent : n.alternate;
      if (test.guest && alwaysThrows(taken)) add(taken!, ancestors, { name: textOf(code, n.test), kind: "throws" });
    } else if (n.type === "ImportExpression") {
      add(n, ancestors, { name: "import()", kind: "import" });
    }
  });
  return uses.filter((use) => use.global === undefined || !defined.has(use.global)).map(({ global: _global, ...use }) => use);
}
