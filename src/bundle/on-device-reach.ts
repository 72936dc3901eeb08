// Whether a node of a bundle runs on-device, read from the nodes around it: each branch it sits
// in (`if`, `?:`, `&&`, `||`, `??`) and each early exit before it (`if (…) return`) is decided by
// what its condition is on-device (guard-value.ts), whatever the formatting; a use inside a `try`
// whose `catch` does not rethrow is caught there. A condition that tests the guest's globals and
// still cannot be decided leaves the node `undecided`; one on data alone is taken to run.
import type { AnyNode, Node, Statement } from "acorn";
import { evaluate, type NameFacts } from "./guard-value.ts";

export type Reach =
  /** It runs whenever the code around it does (or after a condition on data, taken to hold). */
  | { runs: true }
  /** It runs only if a feature test goes one way, which the scan cannot tell: `test` is that condition. */
  | { runs: true; undecided: Node }
  /** A condition on the way to it is false on-device (or an exit before it is taken). */
  | { runs: false; why: "unreached" }
  /** It throws inside a `try` whose `catch` handles the error. */
  | { runs: false; why: "caught" };

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"]);

/** Control never goes past this statement. */
function exits(statement: Statement | null | undefined): boolean {
  if (!statement) return false;
  switch (statement.type) {
    case "ReturnStatement":
    case "ThrowStatement":
    case "BreakStatement":
    case "ContinueStatement":
      return true;
    case "BlockStatement":
      return statement.body.some(exits);
    case "IfStatement":
      return exits(statement.consequent) && exits(statement.alternate);
    default:
      return false;
  }
}

/** A `catch` block that throws again (a statement of its own is a `throw`): the error goes on. */
function rethrows(handler: Extract<AnyNode, { type: "CatchClause" }>): boolean {
  return handler.body.body.some((statement) => statement.type === "ThrowStatement");
}

/** The statement list `parent` holds `child` in, if any. */
function statementList(parent: AnyNode): readonly AnyNode[] | undefined {
  if (parent.type === "BlockStatement" || parent.type === "Program" || parent.type === "StaticBlock") return parent.body;
  if (parent.type === "SwitchCase") return parent.consequent;
  return undefined;
}

/**
 * `ancestors`: from the program down to the node itself. `catchable`: the node throws at once
 * when it fails (a dynamic import() rejects later, so a `try` around it catches nothing).
 */
export function reachOnDevice(ancestors: readonly Node[], facts: NameFacts, catchable = true): Reach {
  let undecided: Node | undefined;
  let inFunction = false;
  /** Whether the branch is taken on-device, from the condition's value and the side the node is on. */
  const branch = (test: Node, taken: boolean): boolean => {
    const value = evaluate(test, facts);
    if (value.truthy === undefined) {
      if (value.probe) undecided ??= test;
      return true;
    }
    return value.truthy === taken;
  };
  for (let i = ancestors.length - 1; i > 0; i--) {
    const child = ancestors[i]!;
    const parent = ancestors[i - 1] as AnyNode;
    if (FUNCTIONS.has(parent.type)) inFunction = true;
    if (parent.type === "IfStatement" || parent.type === "ConditionalExpression") {
      if (child === parent.consequent && !branch(parent.test, true)) return { runs: false, why: "unreached" };
      if (child === parent.alternate && !branch(parent.test, false)) return { runs: false, why: "unreached" };
    } else if (parent.type === "LogicalExpression" && child === parent.right) {
      if (parent.operator === "&&" && !branch(parent.left, true)) return { runs: false, why: "unreached" };
      if (parent.operator === "||" && !branch(parent.left, false)) return { runs: false, why: "unreached" };
      if (parent.operator === "??") {
        const left = evaluate(parent.left, facts);
        const nullish = left.known ? left.value == null : left.truthy ? false : undefined;
        if (nullish === false) return { runs: false, why: "unreached" };
        if (nullish === undefined && left.probe) undecided ??= parent.left;
      }
    } else if (parent.type === "TryStatement" && child === parent.block) {
      if (catchable && !inFunction && parent.handler && !rethrows(parent.handler)) return { runs: false, why: "caught" };
    }
    // An exit before it: `if (typeof X === "undefined") return fallback;` … X.
    const list = statementList(parent);
    if (list) {
      for (const statement of list.slice(0, list.indexOf(child as AnyNode))) {
        if (statement.type !== "IfStatement") continue;
        const leavesIfTrue = exits(statement.consequent);
        const leavesIfFalse = exits(statement.alternate);
        if (leavesIfTrue && leavesIfFalse) return { runs: false, why: "unreached" };
        if ((leavesIfTrue && !branch(statement.test, false)) || (leavesIfFalse && !branch(statement.test, true)))
          return { runs: false, why: "unreached" };
      }
    }
  }
  return undecided ? { runs: true, undecided } : { runs: true };
}
