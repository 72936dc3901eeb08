// A copy of fixtures/agent whose gateway is a local model server (test/support/llm-server.ts):
// what every test of the built-in agent on the calendar and notes targets starts from.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, tempDir } from "./cli.ts";
import type { LlmServer } from "./llm-server.ts";
import { workspaceCopy } from "./workspace-copy.ts";

export const AGENT_FIXTURE = join(REPO, "fixtures/agent");
/** The gateway's key, in $GATEWAY_API_KEY. */
export const AGENT_KEY = "sk-test-gateway-5f1d2c";
/** The calendar map and the waypoint its trails start on. */
export const CALENDAR_MAP = ["--map", "trails/config/trailmaps/calendar", "--start", "calendar/android/day_view"];

/** A copy of the fixture whose gateway is `server` (its provider `type` changed when asked). */
export function agentWorkspace(key: string, llm: LlmServer, type = "openai_compatible"): string {
  const dir = workspaceCopy(AGENT_FIXTURE, `agent-${key}`);
  const anchor = join(dir, "trails/config/trailblaze.yaml");
  const base = type === "anthropic" ? llm.url : `${llm.url}/v1`;
  writeFileSync(
    anchor,
    readFileSync(anchor, "utf8").replace("http://127.0.0.1:9/v1", base).replace("type: openai_compatible", `type: ${type}`),
  );
  return dir;
}

/** The environment the agent's commands run with: the gateway's key, and a home with no ~/.trailblaze. */
export const agentEnv = (extra: Record<string, string> = {}) => ({ GATEWAY_API_KEY: AGENT_KEY, HOME: tempDir("agent-home"), ...extra });
