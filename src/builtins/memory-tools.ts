// Session memory: remember values (ours: rememberValue, forgetValue; upstream's dumpMemory:
// unchecked, as they check nothing), read them from the screen (rememberText, rememberNumber),
// or with an AI (rememberWithAi, which needs an agent).

import { z } from "zod";
import { exceptionThrown, success } from "../core/tool-result.ts";
import { str } from "./arg-types.ts";
import { needsAgent } from "./assertions.ts";
import type { BuiltinRun, BuiltinRuns, BuiltinTable } from "./define-builtin.ts";
import { isNode, nodeName, oneNode, screenCheck } from "./screen-checks.ts";
import type { SimulatedDevice } from "./simulated-device.ts";

const show = (value: unknown) => JSON.stringify(value);

export const MEMORY_TOOLS = {
  rememberValue: {
    description: "Our extension: stores `value` in session memory under `key` (later steps use {{key}}).",
    args: () => ({ key: z.string().min(1), value: z.unknown() }),
  },
  forgetValue: {
    description: "Our extension: deletes `key` from session memory.",
    args: () => ({ key: z.string().min(1) }),
  },
  dumpMemory: {
    description: "Returns the session memory (secrets excluded) as structured content.",
    args: () => ({}),
  },
  rememberText: {
    description: "Finds text on the screen by `prompt` and remembers it as `variable`. Unverified (nothing remembered) without a screen.",
    args: () => ({ prompt: str(), variable: str(1) }),
  },
  rememberNumber: {
    description:
      "Finds a number on the screen by `prompt` and remembers it as `variable`. Unverified (nothing remembered) without a screen.",
    args: () => ({ prompt: str(), variable: str(1) }),
  },
  rememberWithAi: {
    description: "Asks an AI for data about the screen and remembers it as `variable`. Needs an agent: fails in a replay.",
    args: () => ({ prompt: str(), variable: str(1) }),
  },
} satisfies BuiltinTable;

/** rememberText's and rememberNumber's run: the text (or the number in it) of the node `prompt` finds. */
function rememberFromScreen(number: boolean): BuiltinRun<{ prompt: string; variable: string }, SimulatedDevice> {
  return (device, { prompt, variable }, _context, tool) =>
    screenCheck(device, {
      wouldCheck: `the ${number ? "number" : "text"} for ${show(prompt)} (not remembered as ${variable})`,
      check: (screen) => {
        const found = oneNode(tool, screen.findByText({ text: prompt }, "contains"), show(prompt));
        if (!isNode(found)) return found;
        const text = screen.textOf(found) ?? "";
        const value = number ? /-?\d+(?:\.\d+)?/.exec(text.replaceAll(",", ""))?.[0] : text;
        if (value === undefined || value === "")
          return exceptionThrown(`${tool}: ${nodeName(found)} shows ${show(text)}, which has no ${number ? "number" : "text"}`);
        return success(`remembered ${variable} = ${show(value)}`, { memoryDelta: { [variable]: value } });
      },
    });
}

/** Why writing or reading memory is no check: it does what it is told, whatever the app shows. */
const MEMORY_ONLY = "only used session memory";

export const MEMORY_RUNS: BuiltinRuns<typeof MEMORY_TOOLS, SimulatedDevice> = {
  rememberValue: (_device, { key, value }) => success(`remembered ${key}`, { memoryDelta: { [key]: value }, unchecked: MEMORY_ONLY }),
  forgetValue: (_device, { key }) => success(`forgot ${key}`, { memoryDeletions: [key], unchecked: MEMORY_ONLY }),
  dumpMemory: (_device, _args, context) =>
    success(JSON.stringify(context.memory), { structuredContent: { memory: context.memory }, unchecked: MEMORY_ONLY }),
  rememberText: rememberFromScreen(false),
  rememberNumber: rememberFromScreen(true),
  rememberWithAi: (_device, { prompt, variable }) =>
    exceptionThrown(needsAgent("rememberWithAi", `read ${show(prompt)} from the screen into ${variable}`)),
};
