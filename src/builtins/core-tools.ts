// Assertions, memory and pacing tools recorded trails use.

import { isDeepStrictEqual } from "node:util";
import { z } from "zod";
import { exceptionThrown, success, type ToolResult } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { defineBuiltin } from "./define-builtin.ts";

const show = (value: unknown): string => JSON.stringify(value);

/** Values from YAML and memory may be "5" vs 5: compare as-is, then as strings for scalars. */
function looselyEqual(a: unknown, b: unknown): boolean {
  if (isDeepStrictEqual(a, b)) return true;
  const scalar = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";
  return scalar(a) && scalar(b) && String(a) === String(b);
}

export function coreTools(): RegisteredTool[] {
  return [
    defineBuiltin({
      name: "assertEquals",
      description: "Fails unless `actual` equals `expected` (scalars compare as strings, so 5 equals \"5\").",
      args: { actual: z.unknown(), expected: z.unknown(), message: z.string().optional() },
      run: ({ actual, expected, message }): ToolResult =>
        looselyEqual(actual, expected)
          ? success(`${show(actual)} equals ${show(expected)}`)
          : exceptionThrown(`${message ? `${message}: ` : ""}expected ${show(expected)} but was ${show(actual)}`),
    }),
    defineBuiltin({
      name: "assertNotEquals",
      description: "Fails if `actual` equals `expected`.",
      args: { actual: z.unknown(), expected: z.unknown(), message: z.string().optional() },
      run: ({ actual, expected, message }): ToolResult =>
        looselyEqual(actual, expected)
          ? exceptionThrown(`${message ? `${message}: ` : ""}expected a value other than ${show(expected)}`)
          : success(`${show(actual)} differs from ${show(expected)}`),
    }),
    defineBuiltin({
      name: "rememberValue",
      description: "Stores `value` in session memory under `key` (later steps use {{key}}).",
      args: { key: z.string().min(1), value: z.unknown() },
      run: ({ key, value }) => success(`remembered ${key}`, { memoryDelta: { [key]: value } }),
    }),
    defineBuiltin({
      name: "forgetValue",
      description: "Deletes `key` from session memory.",
      args: { key: z.string().min(1) },
      run: ({ key }) => success(`forgot ${key}`, { memoryDeletions: [key] }),
    }),
    defineBuiltin({
      name: "dumpMemory",
      description: "Returns the session memory (secrets excluded) as structured content.",
      args: {},
      run: (_args, context) => success(JSON.stringify(context.memory), { structuredContent: { memory: context.memory } }),
    }),
    defineBuiltin({
      name: "wait",
      description: "Pauses the trail for `seconds` (at most 300).",
      args: { seconds: z.number().min(0).max(300) },
      run: async ({ seconds }) => {
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        return success(`waited ${seconds} s`);
      },
    }),
    defineBuiltin({
      name: "objectiveStatus",
      description: "Records the agent's verdict on the current objective; FAILED fails the step.",
      args: {
        description: z.string().optional(),
        explanation: z.string().optional(),
        status: z.enum(["COMPLETED", "FAILED", "IN_PROGRESS"]),
      },
      run: ({ status, explanation }) =>
        status === "FAILED"
          ? exceptionThrown(`objective failed${explanation ? `: ${explanation}` : ""}`)
          : success(`objective ${status.toLowerCase().replace("_", " ")}${explanation ? `: ${explanation}` : ""}`),
    }),
  ];
}
