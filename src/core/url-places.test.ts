import { describe, expect, test } from "bun:test";
import { allowedOriginEntry, placeKey, placeOf } from "./url-places.ts";

describe("placeOf", () => {
  test("an http(s) URL goes to its origin, default port left out and host in lower case", () => {
    expect(placeOf("https://Shop.Example.com:443/cart?x=1")).toEqual({ kind: "web", origin: "https://shop.example.com" });
    expect(placeOf("http://127.0.0.1:8080/steal?d=1")).toEqual({ kind: "web", origin: "http://127.0.0.1:8080" });
    // Credentials in the URL are not part of the origin.
    expect(placeOf("https://user:pw@shop.example.com/")).toEqual({ kind: "web", origin: "https://shop.example.com" });
  });

  test("a file: URL is its page, exactly, without query or fragment", () => {
    expect(placeOf("file:///work/pages/shop.html?a=1#top")).toEqual({ kind: "file", page: "file:///work/pages/shop.html" });
  });

  test("code, data and the browser's own pages are never opened; a deep link is its scheme", () => {
    for (const url of [
      "javascript:fetch('//x')",
      "JavaScript:alert(1)",
      "data:text/html,<b>x</b>",
      "about:blank",
      "view-source:https://a.b/",
      "blob:https://a.b/1",
    ]) {
      expect(placeOf(url).kind).toBe("never");
      expect(placeKey(placeOf(url))).toBeUndefined();
    }
    expect(placeOf("myapp://reset?user=1")).toEqual({ kind: "scheme", scheme: "myapp:" });
    expect(placeOf("not a url")).toEqual({ kind: "invalid" });
  });
});

describe("an allowed_origins: entry", () => {
  test("is an http(s) origin or a deep-link scheme", () => {
    expect(allowedOriginEntry("https://sso.example.com")).toEqual({ key: "https://sso.example.com" });
    expect(allowedOriginEntry("https://sso.example.com/")).toEqual({ key: "https://sso.example.com" });
    expect(allowedOriginEntry("http://localhost:3000")).toEqual({ key: "http://localhost:3000" });
    expect(allowedOriginEntry("myapp://")).toEqual({ key: "myapp:" });
    expect(allowedOriginEntry("MyApp:")).toEqual({ key: "myapp:" });
  });

  test("anything more or else is a problem that says what to write", () => {
    expect(allowedOriginEntry("https://sso.example.com/login")).toEqual({
      problem:
        '"https://sso.example.com/login" has more than an origin: write https://sso.example.com (the rule is per origin: scheme, host and port)',
    });
    expect(allowedOriginEntry("https://")).toMatchObject({ problem: expect.stringContaining('"https://" names no host') });
    expect(allowedOriginEntry("file:///etc")).toMatchObject({
      problem: expect.stringContaining("file: URLs are never opened for the model"),
    });
    expect(allowedOriginEntry("javascript:")).toMatchObject({ problem: expect.stringContaining("javascript: URLs are never opened") });
    expect(allowedOriginEntry("sso.example.com")).toMatchObject({
      problem: expect.stringContaining('"sso.example.com" is not an origin such as'),
    });
  });
});
