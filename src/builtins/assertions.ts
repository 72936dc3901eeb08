// Assertions on values (memory, tool results): assertEquals, assertNotEquals, assertMath,
// and assertWithAi, which would need a model to judge the screen and always fails.

import { z } from "zod";
import { exceptionThrown, success, type ToolResult } from "../core/tool-result.ts";
import { str } from "./arg-types.ts";
import type { BuiltinRuns, BuiltinTable } from "./define-builtin.ts";
import { evaluateMath, MathExpressionError } from "./math-expression.ts";
import { isNode, nodeName, oneNode, screenCheck } from "./screen-checks.ts";
import type { SimulatedDevice } from "./simulated-device.ts";

/**
 * A value compared as text, as upstream's String parameters are: `5` and "5" are equal; a
 * placeholder that stood for a list or map compares as its JSON.
 */
const text = () =>
  z.preprocess((v) => (typeof v === "string" || v === undefined ? v : typeof v === "object" ? JSON.stringify(v) : String(v)), z.string());

export const ASSERTIONS = {
  assertEquals: {
    description:
      'Fails unless `actual` equals `expected`, compared as text (so 5 equals "5"). `message` (our extension) prefixes the failure.',
    args: () => ({ actual: text(), expected: text(), message: str().optional() }),
  },
  assertNotEquals: {
    description: "Fails if `actual` equals `expected`, compared as text. `message` (our extension) prefixes the failure.",
    args: () => ({ actual: text(), expected: text(), message: str().optional() }),
  },
  assertMath: {
    description:
      "Evaluates `expression` (+ - * / % ^, parentheses, abs/sqrt/round/floor/ceil/min/max) and fails unless it equals `expected` within 0.0001. " +
      "[[prompt]] parts read a number from the screen.",
    args: () => ({ expression: str(), expected: str() }),
  },
  assertWithAi: {
    description: "Asks an AI whether `prompt` holds on the screen. Needs an agent: fails in a replay.",
    args: () => ({ prompt: str() }),
  },
} satisfies BuiltinTable;

const show = (value: string) => JSON.stringify(value);
const prefix = (message: string | undefined) => (message ? `${message}: ` : "");

/** The message of a tool that would ask a model: trailblaze-ts runs it in no session (the built-in agent does steps in words, not these tools). */
export function needsAgent(tool: string, what: string): string {
  return `${tool} needs a model to ${what}, and trailblaze-ts does not ask one for a recorded call; replace the call in the recording with tools that replay without one, or write the step in words for the built-in agent (docs/agent.md)`;
}

function checkMath(expression: string, expected: string): ToolResult {
  const want = Number(expected.trim());
  if (expected.trim() === "" || Number.isNaN(want))
    return exceptionThrown(`Math assertion failed: expected ${show(expected)} is not a number`);
  let got: number;
  try {
    got = evaluateMath(expression);
  } catch (error) {
    if (!(error instanceof MathExpressionError)) throw error;
    return exceptionThrown(`Math assertion failed: cannot evaluate ${show(expression)}: ${error.message}`);
  }
  return Math.abs(got - want) > 0.0001
    ? exceptionThrown(`Math assertion failed: ${expression} evaluated to ${got}, expected ${want}`)
    : success(`${expression} = ${got}`);
}

export const ASSERTION_RUNS: BuiltinRuns<typeof ASSERTIONS, SimulatedDevice> = {
  assertEquals: (_device, { actual, expected, message }): ToolResult =>
    actual === expected
      ? success(`${show(actual)} equals ${show(expected)}`)
      : exceptionThrown(`${prefix(message)}expected ${show(expected)} but was ${show(actual)}`),
  assertNotEquals: (_device, { actual, expected, message }): ToolResult =>
    actual === expected
      ? exceptionThrown(`${prefix(message)}expected a value other than ${show(expected)}`)
      : success(`${show(actual)} differs from ${show(expected)}`),
  assertMath: (device, { expression, expected }) => {
    const prompts = expression.match(/\[\[[^\]]+\]\]/g);
    if (!prompts) return checkMath(expression, expected);
    return screenCheck(device, {
      wouldCheck: `the numbers ${prompts.join(", ")} read from the screen`,
      check: (screen) => {
        let filled = expression;
        for (const prompt of prompts) {
          const found = oneNode("assertMath", screen.findByText({ text: prompt.slice(2, -2) }, "contains"), show(prompt.slice(2, -2)));
          if (!isNode(found)) return found;
          const number = /-?\d+(?:[.,]\d+)?/.exec(screen.textOf(found) ?? "")?.[0];
          if (number === undefined)
            return exceptionThrown(`Math assertion failed: no number in the text of ${nodeName(found)} for ${prompt}`);
          filled = filled.replace(prompt, number.replace(",", "."));
        }
        return checkMath(filled, expected);
      },
    });
  },
  assertWithAi: (_device, { prompt }) => exceptionThrown(needsAgent("assertWithAi", `judge ${show(prompt)}`)),
};
