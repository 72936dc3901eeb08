// Session memory: remember values (ours: rememberValue, forgetValue; upstream's dumpMemory),
// read them from the screen (rememberText, rememberNumber), or with an AI (rememberWithAi,
// which needs an agent).

import { z } from "zod";
import { exceptionThrown, success } from "../core/tool-result.ts";
import type { RegisteredTool } from "../registry/registry.ts";
import { str } from "./arg-types.ts";
import { needsAgent } from "./assertions.ts";
import { defineBuiltin } from "./define-builtin.ts";
import { isNode, nodeName, oneNode, screenCheck } from "./screen-checks.ts";
import type { SimulatedDevice } from "./simulated-device.ts";

const show = (value: unknown) => JSON.stringify(value);

function rememberFromScreen(device: SimulatedDevice, name: "rememberText" | "rememberNumber"): RegisteredTool {
  const number = name === "rememberNumber";
  return defineBuiltin({
    name,
    description: `Finds ${number ? "a number" : "text"} on the screen by \`prompt\` and remembers it as \`variable\`. Unverified (nothing remembered) without a screen.`,
    args: () => ({ prompt: str(), variable: str(1) }),
    run: ({ prompt, variable }) =>
      screenCheck(device, {
        wouldCheck: `the ${number ? "number" : "text"} for ${show(prompt)} (not remembered as ${variable})`,
        check: (screen) => {
          const found = oneNode(name, screen.findByText({ text: prompt }, "contains"), show(prompt));
          if (!isNode(found)) return found;
          const text = screen.textOf(found) ?? "";
          const value = number ? /-?\d+(?:\.\d+)?/.exec(text.replaceAll(",", ""))?.[0] : text;
          if (value === undefined || value === "") return exceptionThrown(`${name}: ${nodeName(found)} shows ${show(text)}, which has no ${number ? "number" : "text"}`);
          return success(`remembered ${variable} = ${show(value)}`, { memoryDelta: { [variable]: value } });
        },
      }),
  });
}

export function memoryTools(device: SimulatedDevice): RegisteredTool[] {
  return [
    defineBuiltin({
      name: "rememberValue",
      description: "Our extension: stores `value` in session memory under `key` (later steps use {{key}}).",
      args: () => ({ key: z.string().min(1), value: z.unknown() }),
      run: ({ key, value }) => success(`remembered ${key}`, { memoryDelta: { [key]: value } }),
    }),
    defineBuiltin({
      name: "forgetValue",
      description: "Our extension: deletes `key` from session memory.",
      args: () => ({ key: z.string().min(1) }),
      run: ({ key }) => success(`forgot ${key}`, { memoryDeletions: [key] }),
    }),
    defineBuiltin({
      name: "dumpMemory",
      description: "Returns the session memory (secrets excluded) as structured content.",
      args: () => ({}),
      run: (_args, context) => success(JSON.stringify(context.memory), { structuredContent: { memory: context.memory } }),
    }),
    rememberFromScreen(device, "rememberText"),
    rememberFromScreen(device, "rememberNumber"),
    defineBuiltin({
      name: "rememberWithAi",
      description: "Asks an AI for data about the screen and remembers it as `variable`. Needs an agent: fails in a replay.",
      args: () => ({ prompt: str(), variable: str(1) }),
      run: ({ prompt, variable }) => exceptionThrown(needsAgent("rememberWithAi", `read ${show(prompt)} from the screen into ${variable}`)),
    }),
  ];
}
