// What the built-in agent's calls may do, checked before each one runs (the model's calls only: a
// recorded step is its author's). A page or screen can tell the model anything; whatever the model
// then calls, no call runs that:
// - carries a secret in an argument not made to hold one: a secret goes only into an argument its
//   tool lists in `_meta["trailblaze/sensitiveArgs"]` (web_fillSecret's `value`, inputText's
//   `text`, a target's tool that declares one), and never while the real page is somewhere the
//   target does not name; so no URL, query, assertion or copy carries it off;
// - opens a place the target does not name: `web_navigate` goes only to the http(s) origins of the
//   platform's `base_url` and `allowed_origins` and of the trail's recorded URLs (a recorded local
//   page exactly), `openUrl` likewise or to an app scheme named so; file:, data:, javascript: and
//   the browser's own pages never.
// A refusal is the call's outcome: the model reads it in its next request, and the step's turns
// record it (`refused`); the call is not run, reported as a tool call or recorded.

import { resolvePageUrl } from "../browser/web-page.ts";
import type { Secrets } from "../core/secrets.ts";
import { placeKey, placeOf } from "../core/url-places.ts";
import type { Session } from "../session/session.ts";
import { interpolate, placeholderKeys, type Lookup } from "../trail/interpolate.ts";
import type { TrailStep } from "../trail/trail-types.ts";

/** The tools that open a URL: the argument holding it, and whether it is a page of the session's browser (a path is a local page). */
const OPENS_URL: Readonly<Record<string, { arg: string; page: boolean }>> = {
  web_navigate: { arg: "url", page: true },
  openUrl: { arg: "url", page: false },
};

/** Where the model's calls may go, and how a page path resolves (as `web_navigate` resolves it). */
export interface CallPolicy {
  /** Each place key (`https://shop.example`, `file:///…/shop.html`, `myapp:`) with who names it. */
  readonly places: ReadonlyMap<string, string>;
  /** The session's platform, lower case, for the hint naming `platforms: <platform>: allowed_origins`. */
  readonly platform: string;
  readonly baseDirs: readonly string[];
  readonly cwd: string;
}

/** A URL a trail's recording opens: the tool, and the URL as written. */
interface RecordedUrl {
  tool: string;
  url: string;
}

/** Whether a web_navigate goes to its `url`: anything but BACK or FORWARD (as the tool reads them: any case, trimmed) is checked. */
const isGoto = (args: Record<string, unknown>) =>
  !["BACK", "FORWARD"].includes(
    String(args.action ?? "GOTO")
      .trim()
      .toUpperCase(),
  );

/** The URLs every recording of the trail opens (every device's), placeholders resolved where they can be. */
export function recordedUrls(steps: readonly TrailStep[], lookup: Lookup): RecordedUrl[] {
  const urls: RecordedUrl[] = [];
  for (const step of steps) {
    for (const calls of Object.values(step.recordings)) {
      for (const call of calls) {
        const opens = OPENS_URL[call.tool];
        if (!opens || (call.tool === "web_navigate" && !isGoto(call.args))) continue;
        let url: unknown;
        try {
          url = interpolate(call.args[opens.arg], lookup);
        } catch {
          continue;
        }
        if (typeof url === "string" && url !== "") urls.push({ tool: call.tool, url });
      }
    }
  }
  return urls;
}

/** Where a URL a tool opens goes: a page path resolved as the browser resolves it. */
function target(tool: string, url: string, policy: Pick<CallPolicy, "baseDirs" | "cwd">): string {
  return OPENS_URL[tool]?.page ? resolvePageUrl(url, policy.baseDirs, policy.cwd) : url;
}

/** The session's policy: its platform's `base_url` and `allowed_origins`, and the trail's recorded URLs. */
export function callPolicy(session: Session, recorded: readonly RecordedUrl[] = []): CallPolicy {
  const { spec } = session;
  const platform = spec.driver.platform.toLowerCase();
  const declared = spec.target.platforms[platform as keyof typeof spec.target.platforms];
  const places = new Map<string, string>();
  const resolving = { baseDirs: spec.trailDir !== undefined ? [spec.trailDir] : [], cwd: spec.cwd };
  const add = (url: string, why: string) => {
    const place = placeOf(url);
    const key = place.kind === "web" || place.kind === "file" || place.kind === "scheme" ? placeKey(place) : undefined;
    if (key !== undefined && !places.has(key)) places.set(key, why);
  };
  for (const url of declared?.baseUrls ?? []) if (placeOf(url).kind === "web") add(url, "base_url");
  for (const key of declared?.allowedOrigins ?? []) if (!places.has(key)) places.set(key, "allowed_origins");
  for (const { tool, url } of recorded) add(target(tool, url, resolving), "the trail's recording");
  return { places, platform, ...resolving };
}

/** The URL of the session's real page, when a tool has opened it. */
export async function pageUrl(session: Session): Promise<string | undefined> {
  return session.web?.opened ? (await session.web.page()).url() : undefined;
}

/** One call the model made. */
export interface AgentCall {
  tool: string;
  /** As the model wrote them, a secret value back to its placeholder: what messages show. */
  written: Record<string, unknown>;
  /** With placeholders resolved: what would run. */
  resolved: Record<string, unknown>;
  /** The tool's `trailblaze/sensitiveArgs`: the arguments a secret may go into. */
  sensitiveArgs: readonly string[];
}

interface GuardContext {
  secrets: Secrets;
  /** Whether a placeholder's key names a secret. */
  isSecretKey(key: string): boolean;
  /** The real page's URL, when one is open. */
  pageUrl?: string | undefined;
}

/** Whether any text in `value` (keys included) holds a secret value. */
function carriesSecret(value: unknown, secrets: Secrets): boolean {
  if (typeof value === "string") return secrets.mask(value) !== value;
  if (typeof value === "number" || typeof value === "bigint") return carriesSecret(String(value), secrets);
  if (Array.isArray(value)) return value.some((item) => carriesSecret(item, secrets));
  if (typeof value === "object" && value !== null)
    return Object.entries(value).some(([key, item]) => carriesSecret(key, secrets) || carriesSecret(item, secrets));
  return false;
}

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The places as a message lists them. */
function placesList(policy: CallPolicy): string {
  const keys = [...policy.places.keys()];
  if (keys.length === 0) return "none: the target names no base_url or allowed_origins and the trail records no URL";
  return keys.length > 4 ? `${keys.slice(0, 4).join(", ")} and ${keys.length - 4} more` : keys.join(", ");
}

function allows(policy: CallPolicy, url: string): boolean {
  const key = placeKey(placeOf(url));
  return key !== undefined && policy.places.has(key);
}

/** Why the place a URL goes to is refused. */
function whyNot(url: string): string {
  const place = placeOf(url);
  switch (place.kind) {
    case "never":
      return `${place.scheme} URLs are never opened for the model`;
    case "file":
      return "a local file, which the trail's recordings do not open";
    case "web":
      return `on ${place.origin}, which is not one of them`;
    case "scheme":
      return `a ${place.scheme} link, which the target does not name`;
    default:
      return "not a URL";
  }
}

/** The refusal of `call` (the message the model reads), or undefined when it may run. */
export function refusal(policy: CallPolicy, call: AgentCall, context: GuardContext): string | undefined {
  const { secrets } = context;
  const hint = `(the target adds places with platforms: ${policy.platform}: allowed_origins)`;
  // An argument carries a secret when its resolved text holds one, or when the model wrote a secret's
  // placeholder into it (a secret too short to be found inside other text is still named there).
  const carrying = Object.keys(call.resolved).filter(
    (arg) => carriesSecret(call.resolved[arg], secrets) || placeholderKeys(call.written[arg]).some((key) => context.isSecretKey(key)),
  );
  const stray = carrying.find((arg) => !call.sensitiveArgs.includes(arg));
  if (stray !== undefined) {
    const keys = placeholderKeys(call.written[stray]).filter((key) => context.isSecretKey(key));
    const what = keys.length > 0 ? `the secret ${keys.map((key) => `{{${key}}}`).join(", ")}` : "a secret's value";
    const into = call.sensitiveArgs.length > 0 ? ` (only its ${call.sensitiveArgs.map((a) => `"${a}"`).join(", ")} may)` : "";
    return (
      `refused: ${call.tool}'s "${stray}" would carry ${what}${into}. A secret is only typed into a field, with ` +
      "web_fillSecret (its value) on a web page or inputText on a device, or given to a target's tool made to take it; it goes into no URL, query, check or copy. The call did not run."
    );
  }
  if (carrying.length > 0 && context.pageUrl !== undefined && !allows(policy, context.pageUrl)) {
    return (
      `refused: the page is at ${clip(secrets.mask(context.pageUrl))}, ${whyNot(context.pageUrl)}; a secret is typed only into the target's own pages ` +
      `(${placesList(policy)}). The call did not run ${hint}.`
    );
  }
  const opens = OPENS_URL[call.tool];
  const url = opens ? call.resolved[opens.arg] : undefined;
  // Any value is checked as the text the tool would take it as (a number is a path too); an empty one opens nothing.
  if (opens && url !== undefined && url !== null && url !== "" && (call.tool !== "web_navigate" || isGoto(call.resolved))) {
    const goes = target(call.tool, String(url), policy);
    if (!allows(policy, goes)) {
      const shown = clip(secrets.mask(String(call.written[opens.arg] ?? url)));
      return `refused: ${call.tool} goes only where the target says (${placesList(policy)}); "${shown}" is ${whyNot(goes)}. The call did not run ${hint}.`;
    }
  }
  return undefined;
}
