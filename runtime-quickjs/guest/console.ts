// Guest `console`: formats arguments like a terminal would and hands each line to the host.
import type { HostBridge } from "./host-bridge.ts";

function describe(value: unknown, depth: number): string {
  if (typeof value === "string") return depth === 0 ? value : JSON.stringify(value);
  if (value instanceof Error)
    return value.stack ? `${value.name}: ${value.message}\n${value.stack}`.trimEnd() : `${value.name}: ${value.message}`;
  if (typeof value === "function") return `[Function ${value.name || "(anonymous)"}]`;
  if (typeof value === "symbol" || typeof value === "bigint" || typeof value !== "object" || value === null) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

export function format(args: readonly unknown[]): string {
  return args.map((arg) => describe(arg, 0)).join(" ");
}

export function makeConsole(host: HostBridge): Record<string, (...args: unknown[]) => void> {
  const at =
    (level: "debug" | "info" | "warn" | "error") =>
    (...args: unknown[]) =>
      host.log(level, format(args));
  return { log: at("info"), info: at("info"), debug: at("debug"), trace: at("debug"), warn: at("warn"), error: at("error") };
}
