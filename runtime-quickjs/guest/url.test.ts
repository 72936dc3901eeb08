import { describe, expect, test } from "bun:test";
import { URL as GuestURL, URLSearchParams as GuestParams } from "./url.ts";

const FIELDS = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash", "origin"] as const;

const absolute = [
  "https://example.com",
  "https://Example.COM:443/a/b/../c/./d?x=1&y=2#frag",
  "http://user:pa ss@host:8080/p?q#h",
  "http://example.com:80/",
  "https://example.com/a b/ü?q=ä ö#f g",
  "HTTP://EXAMPLE.com\\back\\slash",
  "https:///triple.example/path",
  "ws://socket.example:81/chat",
  "file:///C:/dir/file.txt",
  "file://localhost/etc/hosts",
  "mailto:someone@example.com",
  "urn:isbn:0451450523",
  "data:text/plain,hello world",
  "custom://authority/path/../x",
  "https://[::1]:8443/ipv6",
  "  https://trimmed.example/  ",
  "https://exa\nmple.com/tab\tand/newline",
  "https://example.com/%2e%2E/up",
  "https://example.com?",
  "https://example.com#",
];

const invalid = [
  "not a url",
  "https://",
  "http://exa mple.com",
  "https://host:99999",
  "://missing",
  "",
  "http://a<b.com",
  "https://example.com:port",
];

const relative: [string, string][] = [
  ["../up", "https://h.example/a/b/c"],
  ["./same", "https://h.example/a/b/c"],
  ["/root?q", "https://h.example/a/b/c?old#f"],
  ["?only", "https://h.example/a/b/c?old#f"],
  ["#frag", "https://h.example/a/b/c?old"],
  ["//other.example/x", "https://h.example/a"],
  ["", "https://h.example/a?q#f"],
  ["http:rel", "http://h.example/dir/file"],
];

function fields(url: { [K in (typeof FIELDS)[number]]: string }) {
  return Object.fromEntries(FIELDS.map((f) => [f, url[f]]));
}

describe("guest URL matches the host's WHATWG URL", () => {
  for (const input of absolute) {
    test(JSON.stringify(input), () => {
      expect(fields(new GuestURL(input))).toEqual(fields(new URL(input)));
    });
  }
  for (const [input, base] of relative) {
    test(`${JSON.stringify(input)} against ${base}`, () => {
      expect(fields(new GuestURL(input, base))).toEqual(fields(new URL(input, base)));
    });
  }
  for (const input of invalid) {
    test(`rejects ${JSON.stringify(input)}`, () => {
      expect(URL.canParse(input)).toBe(false);
      expect(GuestURL.canParse(input)).toBe(false);
      expect(GuestURL.parse(input)).toBeNull();
      expect(() => new GuestURL(input)).toThrow(`Invalid URL: ${input}`);
    });
  }
});

describe("guest URLSearchParams", () => {
  test("parses, edits and serializes like the host's", () => {
    const query = "a=1&b=two+words&a=3&c=%C3%A4&empty=&flag";
    const guest = new GuestParams(query);
    const host = new URLSearchParams(query);
    expect([...guest]).toEqual([...host]);
    for (const params of [guest, host]) {
      params.append("d", "x y!'()~*");
      params.set("a", "9");
      params.delete("flag");
      params.sort();
    }
    expect(guest.toString()).toBe(host.toString());
    expect(guest.getAll("a")).toEqual(host.getAll("a"));
    expect(guest.get("missing")).toBeNull();
  });

  test("a URL's searchParams write through to its search and href", () => {
    const url = new GuestURL("https://h.example/p?x=1#f");
    url.searchParams.set("y", "a b");
    expect(url.search).toBe("?x=1&y=a+b");
    expect(url.href).toBe("https://h.example/p?x=1&y=a+b#f");
    url.search = "?z=2";
    expect(url.searchParams.get("z")).toBe("2");
  });
});
