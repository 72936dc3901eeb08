import { describe, expect, test } from "bun:test";
import {
  checkToolName,
  firstWarning,
  formatNameFinding,
  scopingFinding,
  splitScopedName,
  trailmapIdFinding,
  wireNameProblem,
} from "./tool-names.ts";

const WIRE = "names sent to LLMs and MCP clients must match ^[a-zA-Z0-9_-]{1,64}$; rename the tool";

describe("wire rule", () => {
  test("64 characters pass, 65 fail with the length", () => {
    expect(wireNameProblem("a".repeat(64))).toBeUndefined();
    expect(wireNameProblem("a".repeat(65))).toBe(`tool name "${"a".repeat(65)}" is 65 characters long (at most 64): ${WIRE}`);
  });

  test("':' and '.' are rejected and named, each once", () => {
    expect(wireNameProblem("myapp:log.in:x")).toBe(`tool name "myapp:log.in:x" contains ":", ".": ${WIRE}`);
  });

  test("spaces, control characters and length are all reported", () => {
    const name = `a b\u0007${"c".repeat(64)}`;
    expect(wireNameProblem(name)).toBe(
      `tool name ${JSON.stringify(name)} contains " " (space), U+0007 and is 68 characters long (at most 64): ${WIRE}`,
    );
  });

  test("dashes and digits are legal; an empty name is not", () => {
    expect(wireNameProblem("web-click_2")).toBeUndefined();
    expect(wireNameProblem("")).toBe("a tool name is empty; names must match ^[a-zA-Z0-9_-]{1,64}$");
  });
});

describe("checkToolName", () => {
  test("a conventional name has no findings", () => {
    expect(checkToolName("myapp_logInWithEmail")).toEqual([]);
    expect(checkToolName("tap")).toEqual([]);
    expect(checkToolName("myapp_ios_resetKeychain")).toEqual([]);
  });

  test("a wire error replaces every advisory finding", () => {
    expect(checkToolName("my.Tool").map((f) => [f.severity, f.rule])).toEqual([["error", "wire"]]);
  });

  test("convention breaks are warnings", () => {
    for (const name of ["Myapp_login", "myapp__login", "myapp-login", "myapp_Login", "myapp_", "_login", "my2_login"]) {
      const rules = checkToolName(name).map((f) => `${f.severity}:${f.rule}`);
      expect({ name, rules }).toEqual({ name, rules: name === "my2_login" ? [] : ["warning:convention"] });
    }
    expect(checkToolName("myapp-login")[0]!.message).toBe(
      'tool name "myapp-login" does not follow the naming convention ^[a-z][a-zA-Z0-9]*(_[a-z][a-zA-Z0-9]*)*$ ' +
        "(lowerCamelCase words joined by single underscores, e.g. myapp_logInWithEmail)",
    );
  });

  test("over 60 characters warns with the local half to shorten; 60 does not", () => {
    const local = "x".repeat(54);
    expect(checkToolName(`myapp_${local}`)).toEqual([]);
    const long = `myapp_${local}xy`;
    expect(checkToolName(long)).toEqual([
      {
        severity: "warning",
        rule: "length",
        name: long,
        message: `tool name "${long}" is 62 characters long, close to the 64-character wire limit; shorten the local half "${local}xy" to at most 60 characters`,
      },
    ]);
  });
});

describe("trailmap scoping", () => {
  test("foo_bar_X splits at the first underscore only", () => {
    expect(splitScopedName("foo_bar_X")).toEqual({ trailmap: "foo", local: "bar_X" });
    expect(splitScopedName("tap")).toBeUndefined();
    expect(splitScopedName("_tap")).toBeUndefined();
    expect(splitScopedName("tap_")).toBeUndefined();
  });

  test("target ids are one lowerCamelCase word", () => {
    expect(trailmapIdFinding("myApp")).toBeUndefined();
    for (const id of ["my_app", "my-app", "MyApp", "1app"]) expect(trailmapIdFinding(id)?.rule).toBe("trailmap-id");
    expect(formatNameFinding(trailmapIdFinding("my_app")!)).toBe(
      '[TrailmapScopingCheck] target id "my_app" does not match ^[a-z][a-zA-Z0-9]*$: ids are one lowerCamelCase word ' +
        '(no "_" or "-") so that <targetId>_<localName> tool names split at their first underscore (advisory)',
    );
  });

  test("a server's unscoped tools are listed in one finding; a bare prefix is not scoped", () => {
    expect(scopingFinding("myapp", ["myapp_logIn", "myapp_ios_reset"])).toBeUndefined();
    const finding = scopingFinding("myapp", ["myapp_logIn", "logOut", "myapp_", "myappX_y"])!;
    expect(formatNameFinding(finding, "tools/login.ts")).toBe(
      "[TrailmapScopingCheck] tools/login.ts: tools of target myapp not named myapp_<localName>: logOut, myapp_, myappX_y; " +
        "rename them (e.g. myapp_logOut) so the name says which target owns the tool (advisory)",
    );
  });

  test("advisory warnings are printed once per key per process", () => {
    const key = `myapp@${import.meta.path}#${Math.random()}`;
    expect(firstWarning(key)).toBe(true);
    expect(firstWarning(key)).toBe(false);
    expect(firstWarning(`${key}/other.ts`)).toBe(true);
  });
});
