// Where a URL goes, as the built-in agent's navigation rule compares places: a web origin (scheme,
// host and port of an http(s) URL), a local page (a file: URL, exactly, without its query), an
// app's deep-link scheme (`myapp:`), or a scheme that is never opened for a model (javascript:,
// data:, …). Also what a target's `allowed_origins:` entry may name. Shared by the config that
// declares places and the agent that checks its calls against them.

/** Schemes a model's call never opens, whoever names them: they run code, read local data or reach the browser's own pages. */
const NEVER_OPENED = new Set([
  "javascript:",
  "vbscript:",
  "data:",
  "blob:",
  "about:",
  "filesystem:",
  "view-source:",
  "chrome:",
  "chrome-extension:",
  "chrome-untrusted:",
  "devtools:",
  "content:",
  "intent:",
  "jar:",
]);

export type UrlPlace =
  /** An http(s) URL: its origin (`https://shop.example.com`, default port left out). */
  | { kind: "web"; origin: string }
  /** A local page: the file URL without query or fragment. */
  | { kind: "file"; page: string }
  /** A deep link: its scheme with the colon (`myapp:`). */
  | { kind: "scheme"; scheme: string }
  /** A scheme never opened for a model. */
  | { kind: "never"; scheme: string }
  | { kind: "invalid" };

/** The place `url` (absolute) goes to. */
export function placeOf(url: string): UrlPlace {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: "invalid" };
  }
  const scheme = parsed.protocol.toLowerCase();
  if (scheme === "http:" || scheme === "https:") return { kind: "web", origin: parsed.origin };
  if (scheme === "file:") return { kind: "file", page: `file://${parsed.host}${parsed.pathname}` };
  if (NEVER_OPENED.has(scheme)) return { kind: "never", scheme };
  return { kind: "scheme", scheme };
}

/** The key a place is allowed under (`https://a.example`, `file:///…/shop.html`, `myapp:`); undefined for a place never allowed. */
export function placeKey(place: UrlPlace): string | undefined {
  switch (place.kind) {
    case "web":
      return place.origin;
    case "file":
      return place.page;
    case "scheme":
      return place.scheme;
    default:
      return undefined;
  }
}

/**
 * One `allowed_origins:` entry as a place key: an http(s) origin (`https://sso.example.com`, a port
 * if not the default, nothing after the host but an optional `/`), or a deep-link scheme
 * (`myapp://`, `myapp:`). Anything else is the problem to report.
 */
export function allowedOriginEntry(text: string): { key: string } | { problem: string } {
  const entry = text.trim();
  const example = "an origin such as https://sso.example.com (scheme, host and port) or an app's deep-link scheme such as myapp://";
  if (/^[a-z][a-z0-9+.-]*:(\/\/)?$/i.test(entry)) {
    const scheme = `${entry.slice(0, entry.indexOf(":")).toLowerCase()}:`;
    if (scheme === "http:" || scheme === "https:") return { problem: `"${text}" names no host: write ${example}` };
    if (scheme === "file:" || NEVER_OPENED.has(scheme))
      return { problem: `"${text}": ${scheme} URLs are never opened for the model (local files, code, browser pages); write ${example}` };
    return { key: scheme };
  }
  const place = placeOf(entry);
  if (place.kind === "file" || place.kind === "never")
    return {
      problem: `"${text}": ${entry.slice(0, entry.indexOf(":") + 1)} URLs are never opened for the model (local files, code, browser pages); write ${example}`,
    };
  if (place.kind !== "web") return { problem: `"${text}" is not ${example}` };
  const parsed = new URL(entry);
  if (parsed.username || parsed.password || parsed.search || parsed.hash || parsed.pathname !== "/" || /[?#]$/.test(entry))
    return { problem: `"${text}" has more than an origin: write ${place.origin} (the rule is per origin: scheme, host and port)` };
  return { key: place.origin };
}
