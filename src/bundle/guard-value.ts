// What a condition in a bundle evaluates to on-device, as far as the code itself says: `typeof X`,
// `globalThis.X`, `"X" in globalThis` and `G.x` of the guest's globals are decided by the guest's
// real globals (a name it lacks is undefined), literals and operators are folded, and a `const`
// (or a variable only its initializer writes) stands for its initializer. Anything else (a
// parameter, a call's result) is unknown.
import type { AnyNode, Identifier, Node } from "acorn";

export interface OnDeviceValue {
  /** Whether `value` is the value. */
  known: boolean;
  value?: unknown;
  /** Truthiness, when known (also for a value only known to be an object or a function). */
  truthy?: boolean;
  /** `typeof` the value, when known. */
  typeOf?: string;
  /** It depends on what the guest has: the condition is a feature test. */
  guest: boolean;
  /** Unknown for want of more of the guest than its globals and their properties (`Symbol.prototype.description`): a feature test the scan cannot decide. */
  probe: boolean;
}

/** What the evaluation needs to know about names in the bundle. */
export interface NameFacts {
  /** Name → `typeof` of each global the guest has, and `X.y` → `typeof X.y` for their properties. */
  guest: ReadonlyMap<string, string>;
  /** The identifier is a reference to a global (no binding of the bundle declares it). */
  isGlobal(id: Identifier): boolean;
  /** The expression a binding always holds (a `const`, or a variable written only by its initializer). */
  constantOf(id: Identifier): Node | undefined;
}

type Flags = Pick<OnDeviceValue, "guest" | "probe">;
const NONE: Flags = { guest: false, probe: false };
const GUEST: Flags = { guest: true, probe: false };
/** How deep a chain of constants and operators is followed. */
const MAX_DEPTH = 24;

const merge = (...values: Flags[]): Flags => ({ guest: values.some((v) => v.guest), probe: values.some((v) => v.probe) });
const exact = (value: unknown, flags: Flags): OnDeviceValue => ({
  known: true,
  value,
  truthy: Boolean(value),
  typeOf: typeof value,
  ...merge(flags),
});
const unknown = (flags: Flags, truthy?: boolean): OnDeviceValue => ({
  known: false,
  ...merge(flags),
  ...(truthy === undefined ? {} : { truthy }),
});

const GLOBAL_VALUES: Record<string, unknown> = { undefined: undefined, NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY };

/** The name a member expression reads, when it is written out (`a.b`, `a["b"]`). */
export function staticProperty(node: AnyNode): string | undefined {
  if (node.type !== "MemberExpression") return undefined;
  if (!node.computed && node.property.type === "Identifier") return node.property.name;
  if (node.computed && node.property.type === "Literal" && typeof node.property.value === "string") return node.property.value;
  return undefined;
}

/** `globalThis.X` (or `globalThis["X"]`) with `globalThis` the real one: X. */
export function globalThisProperty(node: AnyNode, facts: NameFacts): string | undefined {
  if (node.type !== "MemberExpression" || node.object.type !== "Identifier" || node.object.name !== "globalThis") return undefined;
  return facts.isGlobal(node.object) ? staticProperty(node) : undefined;
}

/** The name of the guest's global `node` reads directly or as `globalThis.X`, if it is one the guest has. */
export function guestGlobalName(node: Node, facts: NameFacts): string | undefined {
  const n = node as AnyNode;
  const name = n.type === "Identifier" && facts.isGlobal(n) ? n.name : globalThisProperty(n, facts);
  return name !== undefined && facts.guest.has(name) ? name : undefined;
}

/**
 * The global `name` (or, as `X.y`, a property of one) as the guest has it: undefined where it has
 * none, else known by its `typeof` (an object or a function is truthy).
 */
function guestValue(name: string, facts: NameFacts): OnDeviceValue {
  if (Object.hasOwn(GLOBAL_VALUES, name)) return exact(GLOBAL_VALUES[name], NONE);
  const typeOf = facts.guest.get(name);
  if (typeOf === undefined || typeOf === "undefined") return exact(undefined, GUEST);
  // A property whose getter throws when read without its receiver: nothing known.
  if (typeOf === "") return unknown({ guest: true, probe: true });
  return { known: false, typeOf, guest: true, probe: false, ...(typeOf === "object" || typeOf === "function" ? { truthy: true } : {}) };
}

function compare(operator: string, a: unknown, b: unknown): boolean | undefined {
  switch (operator) {
    case "===":
      return a === b;
    case "!==":
      return a !== b;
    case "==":
      // biome-ignore lint/suspicious/noDoubleEquals: folds the bundle's own loose comparison
      return a == b;
    case "!=":
      // biome-ignore lint/suspicious/noDoubleEquals: folds the bundle's own loose comparison
      return a != b;
    case "<":
      return (a as number) < (b as number);
    case ">":
      return (a as number) > (b as number);
    case "<=":
      return (a as number) <= (b as number);
    case ">=":
      return (a as number) >= (b as number);
    default:
      return undefined;
  }
}

/** `typeof <node>` on-device: of a global the guest lacks, "undefined" (no error, unlike reading it). */
function typeOf(node: Node, facts: NameFacts, depth: number): OnDeviceValue {
  const value =
    node.type === "Identifier" && facts.isGlobal(node as Identifier)
      ? guestValue((node as Identifier).name, facts)
      : evaluate(node, facts, depth);
  return value.typeOf === undefined ? unknown(value) : exact(value.typeOf, value);
}

/** `a == b` where one side is truthy but not known (an object, a function): never equal to `undefined` or `null`. */
function compareWithTruthy(operator: string, other: OnDeviceValue): boolean | undefined {
  if (!other.known || other.value != null) return undefined;
  if (operator === "===" || operator === "==") return false;
  if (operator === "!==" || operator === "!=") return true;
  return undefined;
}

function binary(node: Extract<AnyNode, { type: "BinaryExpression" }>, facts: NameFacts, depth: number): OnDeviceValue {
  if (node.operator === "in" && node.left.type === "Literal" && typeof node.left.value === "string") {
    const right = node.right;
    if (right.type === "Identifier" && right.name === "globalThis" && facts.isGlobal(right))
      return exact(facts.guest.has(node.left.value), GUEST);
  }
  const left = evaluate(node.left, facts, depth);
  const right = evaluate(node.right, facts, depth);
  const result =
    left.known && right.known
      ? compare(node.operator, left.value, right.value)
      : left.truthy && !left.known
        ? compareWithTruthy(node.operator, right)
        : right.truthy && !right.known
          ? compareWithTruthy(node.operator, left)
          : undefined;
  return result === undefined ? unknown(merge(left, right)) : exact(result, merge(left, right));
}

function logical(node: Extract<AnyNode, { type: "LogicalExpression" }>, facts: NameFacts, depth: number): OnDeviceValue {
  const left = evaluate(node.left, facts, depth);
  const nullish = left.known ? left.value == null : left.truthy === true ? false : undefined;
  const leftDecides = node.operator === "&&" ? left.truthy === false : node.operator === "||" ? left.truthy === true : nullish === false;
  const rightDecides = node.operator === "&&" ? left.truthy === true : node.operator === "||" ? left.truthy === false : nullish === true;
  if (leftDecides) return left;
  const right = evaluate(node.right, facts, depth);
  if (rightDecides) return { ...right, ...merge(left, right) };
  // Either side: truthy or falsy only if both agree.
  return unknown(merge(left, right), right.truthy !== undefined && right.truthy === left.truthy ? right.truthy : undefined);
}

function unary(node: Extract<AnyNode, { type: "UnaryExpression" }>, facts: NameFacts, depth: number): OnDeviceValue {
  if (node.operator === "typeof") return typeOf(node.argument, facts, depth);
  if (node.operator === "void") return exact(undefined, NONE);
  const value = evaluate(node.argument, facts, depth);
  if (node.operator === "!") return value.truthy === undefined ? unknown(value) : exact(!value.truthy, value);
  if (value.known && node.operator === "-") return exact(-(value.value as number), value);
  if (value.known && node.operator === "+") return exact(+(value.value as number), value);
  return unknown(value);
}

function member(node: Extract<AnyNode, { type: "MemberExpression" }>, facts: NameFacts, depth: number): OnDeviceValue {
  const property = globalThisProperty(node, facts);
  if (property !== undefined) return guestValue(property, facts);
  // A property of a global the guest has (`Symbol.asyncIterator`, `Object.hasOwn`).
  const owner = guestGlobalName(node.object, facts);
  const name = staticProperty(node);
  if (owner !== undefined && name !== undefined) return guestValue(`${owner}.${name}`, facts);
  const object = evaluate(node.object, facts, depth);
  if (object.known && object.value == null) {
    // `a?.b` with `a` nullish is undefined; `a.b` throws (check-bundle names the read itself).
    return node.optional ? exact(undefined, object) : unknown(NONE);
  }
  // Deeper into the guest (`Symbol.prototype.description`) is not known here.
  return unknown(owner !== undefined || object.guest ? { guest: true, probe: true } : object);
}

/** What `node` evaluates to on-device, as far as the code says. */
export function evaluate(node: Node, facts: NameFacts, depth = 0): OnDeviceValue {
  if (depth > MAX_DEPTH) return unknown(NONE);
  const next = depth + 1;
  const n = node as AnyNode;
  switch (n.type) {
    case "Literal":
      return "regex" in n && n.regex ? { known: false, truthy: true, typeOf: "object", ...NONE } : exact(n.value, NONE);
    case "TemplateLiteral":
      return n.expressions.length === 0 ? exact(n.quasis[0]?.value.cooked, NONE) : unknown(NONE);
    case "Identifier": {
      if (facts.isGlobal(n)) return guestValue(n.name, facts);
      const constant = facts.constantOf(n);
      return constant ? evaluate(constant, facts, next) : unknown(NONE);
    }
    case "UnaryExpression":
      return unary(n, facts, next);
    case "BinaryExpression":
      return binary(n, facts, next);
    case "LogicalExpression":
      return logical(n, facts, next);
    case "ConditionalExpression": {
      const test = evaluate(n.test, facts, next);
      if (test.truthy === undefined) return unknown(test);
      const value = evaluate(test.truthy ? n.consequent : n.alternate, facts, next);
      return { ...value, ...merge(test, value) };
    }
    case "SequenceExpression":
      return evaluate(n.expressions[n.expressions.length - 1]!, facts, next);
    case "ChainExpression":
      return evaluate(n.expression, facts, next);
    case "MemberExpression":
      return member(n, facts, next);
    default:
      return unknown(NONE);
  }
}
