// How the simulated device runs a tool that acts on (or checks) one element: the element is found
// on the screen when one is loaded, and the action recorded on it; without a screen the action is
// recorded and the step is unverified (see screen-checks.ts); the tool's description says so
// (UNVERIFIED_ACTION). A tool that acts by snapshot ref says what a recording keeps instead
// (`recordAs`: the node's selector, found before the action moves the screen on).

import { exceptionThrown, isSuccess, type Success } from "../core/tool-result.ts";
import type { TrailblazeContext } from "../core/context.ts";
import type { BuiltinRun } from "./define-builtin.ts";
import { isNode, nodeName, oneNode, screenCheck, type DeviceScreen, type ScreenNode, type SelectorMatch } from "./screen-checks.ts";
import type { SimulatedDevice } from "./simulated-device.ts";

/** The end of the description of a tool whose run is onScreenElement's. */
export const UNVERIFIED_ACTION = " Unverified without a screen (the action is still recorded).";

interface ElementRun<A> {
  /** How to find the element on a screen, and how to name it in messages. */
  find(args: A, screen: DeviceScreen): SelectorMatch;
  what(args: A): string;
  /** 0-based index among several matches, when the call gives one. */
  index?(args: A): number | undefined;
  /** What is recorded: the action name (default the tool's) and details. */
  record(args: A): { action?: string; details: Record<string, unknown>; summary: string };
  /** A check on the arguments before anything happens (a failure message). */
  precheck?(args: A, context: TrailblazeContext): string | undefined;
  /** What a recording keeps instead of the call (a tool acting by ref: the node named durably), once the node is found. */
  recordAs?(args: A, node: ScreenNode, screen: DeviceScreen): Success["recordAs"];
}

/** The run of a tool acting on one element: found on the screen when one is loaded, else recorded and unverified. */
export function onScreenElement<A>(def: ElementRun<A>): BuiltinRun<A, SimulatedDevice> {
  return (device, args, context, tool) => {
    const problem = def.precheck?.(args, context);
    if (problem) return exceptionThrown(`${tool}: ${problem}`);
    const { action = tool, details, summary } = def.record(args);
    const what = def.what(args);
    return screenCheck(device, {
      wouldCheck: `that ${what} is on the screen`,
      action: { name: action, details, summary },
      check: (screen) => {
        const node = oneNode(tool, def.find(args, screen), what, def.index?.(args));
        if (!isNode(node)) return node;
        // Named before the action: the screen may move on once it is done.
        const recordAs = def.recordAs?.(args, node, screen);
        const result = device.record(action, { ...details, nodeId: node.nodeId }, `${summary} on ${nodeName(node)}`);
        return recordAs && isSuccess(result) ? { ...result, recordAs } : result;
      },
    });
  };
}
