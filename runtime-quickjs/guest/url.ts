// Guest `URL`/`URLSearchParams` (QuickJS has neither): zod's z.url() and the SDK's resource
// handling parse URLs. Follows the WHATWG parser for what those need: schemes, authority,
// default ports, dot segments, percent-encoding, relative resolution against a base.
// Not covered: IDNA (non-ASCII host names are kept, lowercased) and IPv4 number forms.
import { URLSearchParams } from "./url-search-params.ts";

export { URLSearchParams };

const SPECIAL_PORTS: Record<string, string> = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443", "ftp:": "21", "file:": "" };
const isSpecial = (protocol: string) => protocol in SPECIAL_PORTS;

const C0 = (c: number) => c < 0x20 || c > 0x7e;
const FRAGMENT = (c: number) => C0(c) || c === 0x20 || c === 0x22 || c === 0x3c || c === 0x3e || c === 0x60;
const QUERY = (c: number) => C0(c) || c === 0x20 || c === 0x22 || c === 0x23 || c === 0x3c || c === 0x3e;
const SPECIAL_QUERY = (c: number) => QUERY(c) || c === 0x27;
const PATH = (c: number) => QUERY(c) || c === 0x3f || c === 0x5e || c === 0x60 || c === 0x7b || c === 0x7d;
const USERINFO = (c: number) =>
  PATH(c) || c === 0x2f || c === 0x3a || c === 0x3b || c === 0x3d || c === 0x40 || (c >= 0x5b && c <= 0x5d) || c === 0x7c;
const FORBIDDEN_HOST = /[\0\t\n\r #/:<>?@[\\\]^|%\x01-\x1f\x7f]/;

function encode(text: string, inSet: (c: number) => boolean): string {
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (!inSet(c)) out += ch;
    else if (c < 0x80) out += `%${c.toString(16).toUpperCase().padStart(2, "0")}`;
    else {
      try {
        out += encodeURIComponent(ch);
      } catch {
        out += "%EF%BF%BD";
      }
    }
  }
  return out;
}

function invalid(input: string): TypeError {
  return new TypeError(`Invalid URL: ${input}`);
}

interface Parts {
  protocol: string;
  username: string;
  password: string;
  hostname: string;
  port: string;
  /** Whether the URL has an authority (`//`). */
  authority: boolean;
  /** Opaque paths (`mailto:x`) are not split into segments. */
  opaque: boolean;
  pathname: string;
  /** Without the "?"; null when absent ("" when the URL ends in "?"). */
  query: string | null;
  /** Without the "#"; null when absent. */
  fragment: string | null;
}

function parseHost(host: string, special: boolean, input: string): string {
  if (host.startsWith("[")) {
    if (!/^\[[0-9A-Fa-f:.]+\]$/.test(host)) throw invalid(input);
    return host.toLowerCase();
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(host);
  } catch {
    throw invalid(input);
  }
  if (!special) {
    if (/[\0\t\n\r #/:<>?@[\\\]^|]/.test(host)) throw invalid(input);
    return encode(host, C0);
  }
  if (FORBIDDEN_HOST.test(decoded)) throw invalid(input);
  return decoded.toLowerCase();
}

/** Splits `user:pass@host:port` and validates it into `parts`. */
function parseAuthority(authority: string, parts: Parts, input: string): void {
  const special = isSpecial(parts.protocol);
  const at = authority.lastIndexOf("@");
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(":");
    parts.username = encode(colon >= 0 ? userinfo.slice(0, colon) : userinfo, USERINFO);
    parts.password = colon >= 0 ? encode(userinfo.slice(colon + 1), USERINFO) : "";
    authority = authority.slice(at + 1);
  }
  const portMatch = /:(\d*)$/.exec(authority);
  let host = authority;
  if (portMatch && !authority.endsWith("]")) {
    host = authority.slice(0, portMatch.index);
    const digits = portMatch[1]!;
    if (digits !== "") {
      const port = Number(digits);
      if (port > 65535) throw invalid(input);
      parts.port = String(port) === SPECIAL_PORTS[parts.protocol] ? "" : String(port);
    }
  } else if (/:[^\]]*$/.test(authority) && !authority.startsWith("[")) {
    throw invalid(input);
  }
  parts.hostname = host === "" ? "" : parseHost(host, special, input);
  if (special && parts.protocol !== "file:" && parts.hostname === "") throw invalid(input);
  if (parts.protocol === "file:" && parts.hostname === "localhost") parts.hostname = "";
}

const isDot = (s: string) => s === "." || s.toLowerCase() === "%2e";
const isDotDot = (s: string) => ["..", ".%2e", "%2e.", "%2e%2e"].includes(s.toLowerCase());

/** Resolves `.`/`..` segments of an absolute path and percent-encodes each segment. */
function normalizePath(path: string, special: boolean): string {
  const segments = (special ? path.replace(/\\/g, "/") : path).split("/").slice(1);
  const out: string[] = [];
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (isDotDot(segment)) {
      out.pop();
      if (last) out.push("");
    } else if (isDot(segment)) {
      if (last) out.push("");
    } else out.push(encode(segment, PATH));
  });
  return `/${out.join("/")}`;
}

/** Splits `path?query#fragment` into `parts` (path still raw). */
function splitTail(rest: string, parts: Parts): string {
  const hashAt = rest.indexOf("#");
  if (hashAt >= 0) {
    parts.fragment = encode(rest.slice(hashAt + 1), FRAGMENT);
    rest = rest.slice(0, hashAt);
  }
  const queryAt = rest.indexOf("?");
  if (queryAt >= 0) {
    parts.query = encode(rest.slice(queryAt + 1), isSpecial(parts.protocol) ? SPECIAL_QUERY : QUERY);
    rest = rest.slice(0, queryAt);
  }
  return rest;
}

function blank(protocol: string): Parts {
  return {
    protocol,
    username: "",
    password: "",
    hostname: "",
    port: "",
    authority: false,
    opaque: false,
    pathname: "",
    query: null,
    fragment: null,
  };
}

function withAuthority(protocol: string, rest: string, input: string): Parts {
  const parts = blank(protocol);
  parts.authority = true;
  const special = isSpecial(protocol);
  const end = rest.search(special ? /[/\\?#]/ : /[/?#]/);
  parseAuthority(end < 0 ? rest : rest.slice(0, end), parts, input);
  const path = splitTail(end < 0 ? "" : rest.slice(end), parts);
  parts.pathname =
    path === "" ? (special ? "/" : "") : normalizePath(path.startsWith("/") || path.startsWith("\\") ? path : `/${path}`, special);
  return parts;
}

function parseRelative(rest: string, base: Parts, input: string): Parts {
  const special = isSpecial(base.protocol);
  if (base.opaque) {
    if (!rest.startsWith("#")) throw invalid(input);
    const parts = { ...base, fragment: null };
    splitTail(rest, parts);
    return parts;
  }
  if (special ? /^[/\\]{2}/.test(rest) : rest.startsWith("//")) return withAuthority(base.protocol, rest.slice(2), input);
  const parts: Parts = { ...base, query: null, fragment: null };
  const path = splitTail(rest, parts);
  if (path === "") {
    if (!rest.startsWith("?")) parts.query = base.query;
    return parts;
  }
  if (path.startsWith("/") || (special && path.startsWith("\\"))) parts.pathname = normalizePath(path, special);
  else parts.pathname = normalizePath(`${base.pathname.slice(0, base.pathname.lastIndexOf("/") + 1)}${path}`, special);
  return parts;
}

function parse(raw: string, base?: Parts): Parts {
  const input = raw.replace(/^[\0-\x20]+|[\0-\x20]+$/g, "").replace(/[\t\n\r]/g, "");
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(input);
  if (!scheme) {
    if (!base) throw invalid(raw);
    return parseRelative(input, base, raw);
  }
  const protocol = `${scheme[1]!.toLowerCase()}:`;
  const rest = input.slice(scheme[0].length);
  if (isSpecial(protocol)) {
    if (base && base.protocol === protocol && !/^[/\\]/.test(rest)) return parseRelative(rest, base, raw);
    if (protocol === "file:") {
      if (/^[/\\]{2}/.test(rest)) return withAuthority(protocol, rest.slice(2), raw);
      const parts = blank(protocol);
      parts.authority = true;
      parts.pathname = normalizePath(`/${splitTail(rest, parts).replace(/^[/\\]+/, "")}`, true);
      return parts;
    }
    return withAuthority(protocol, rest.replace(/^[/\\]+/, ""), raw);
  }
  if (rest.startsWith("//")) return withAuthority(protocol, rest.slice(2), raw);
  const parts = blank(protocol);
  const path = splitTail(rest, parts);
  if (path.startsWith("/")) parts.pathname = normalizePath(path, false);
  else {
    parts.opaque = true;
    parts.pathname = encode(path, C0);
  }
  return parts;
}

export class URL {
  private parts: Parts;
  private params: URLSearchParams | undefined;

  constructor(url: string | URL, base?: string | URL) {
    const baseParts = base === undefined ? undefined : parse(String(base));
    this.parts = parse(String(url), baseParts);
  }

  static canParse(url: string, base?: string): boolean {
    try {
      new URL(url, base);
      return true;
    } catch {
      return false;
    }
  }

  static parse(url: string, base?: string): URL | null {
    try {
      return new URL(url, base);
    } catch {
      return null;
    }
  }

  get protocol(): string {
    return this.parts.protocol;
  }
  get username(): string {
    return this.parts.username;
  }
  get password(): string {
    return this.parts.password;
  }
  get hostname(): string {
    return this.parts.hostname;
  }
  get port(): string {
    return this.parts.port;
  }
  get host(): string {
    return this.parts.port ? `${this.parts.hostname}:${this.parts.port}` : this.parts.hostname;
  }
  get origin(): string {
    const { protocol } = this.parts;
    return isSpecial(protocol) && protocol !== "file:" ? `${protocol}//${this.host}` : "null";
  }
  get pathname(): string {
    return this.parts.pathname;
  }
  get search(): string {
    return this.parts.query ? `?${this.parts.query}` : "";
  }
  set search(value: string) {
    const text = String(value).replace(/^\?/, "");
    this.parts.query = text === "" ? null : encode(text, isSpecial(this.parts.protocol) ? SPECIAL_QUERY : QUERY);
    this.params?._parse(this.parts.query ?? "");
  }
  get hash(): string {
    return this.parts.fragment ? `#${this.parts.fragment}` : "";
  }
  set hash(value: string) {
    const text = String(value).replace(/^#/, "");
    this.parts.fragment = text === "" ? null : encode(text, FRAGMENT);
  }
  get searchParams(): URLSearchParams {
    if (!this.params) {
      const params = new URLSearchParams(this.parts.query ?? "");
      params._onChange = () => {
        const query = params.toString();
        this.parts.query = query === "" ? null : query;
      };
      this.params = params;
    }
    return this.params;
  }
  get href(): string {
    const p = this.parts;
    let out = p.protocol;
    if (p.authority) {
      const userinfo = p.username || p.password ? `${p.username}${p.password ? `:${p.password}` : ""}@` : "";
      out += `//${userinfo}${this.host}`;
    }
    return out + p.pathname + (p.query === null ? "" : `?${p.query}`) + (p.fragment === null ? "" : `#${p.fragment}`);
  }
  toString(): string {
    return this.href;
  }
  toJSON(): string {
    return this.href;
  }
}
