import { describe, expect, test } from "bun:test";
import { parseReporterFlags, reportDestination } from "./report-output.ts";

/** Each choice as `name` or `name=output`. */
const parsed = (flags: string[] | undefined, output?: string) =>
  parseReporterFlags("run", flags, output).map((c) => (c.output === undefined ? c.name : `${c.name}=${c.output}`));
const error = (flags: string[] | undefined, output?: string) => {
  try {
    parseReporterFlags("run", flags, output);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("no error");
};

describe("--reporter and --output", () => {
  test("default list; comma-separated and repeated; NAME=PATH; paths of the user's own", () => {
    expect(parsed(undefined)).toEqual(["list"]);
    expect(parsed(["list,json=out/report.json", "html=out/html", "junit"])).toEqual([
      "list",
      "json=out/report.json",
      "html=out/html",
      "junit",
    ]);
    expect(parsed(["./reporters/slack.ts", "reporters/x.mjs=x.txt", "my.js", ".hidden"])).toEqual([
      "./reporters/slack.ts",
      "reporters/x.mjs=x.txt",
      "my.js",
      ".hidden",
    ]);
    expect(parseReporterFlags("run", ["json"], undefined)[0]?.builtin?.name).toBe("json");
    expect(parseReporterFlags("run", ["./r.ts"], undefined)[0]?.builtin).toBeUndefined();
  });

  test("--output goes to the one reporter chosen, or to the one besides list without its own", () => {
    expect(parsed(["list"], "list.txt")).toEqual(["list=list.txt"]);
    expect(parsed(["json"], "r.json")).toEqual(["json=r.json"]);
    expect(parsed(["list,html"], "out")).toEqual(["list", "html=out"]);
    expect(parsed(["json=r.json,junit"], "j.xml")).toEqual(["json=r.json", "junit=j.xml"]);
    expect(parsed(["list,./mine.ts"], "mine.txt")).toEqual(["list", "./mine.ts=mine.txt"]);
  });

  test("an --output that could mean two reporters, or none, and names that are no reporter, are usage errors", () => {
    expect(error(["json,junit"], "x")).toBe(
      "run: --output x is ambiguous: json and junit each write a report; name each one's output instead, e.g. --reporter json=report.json,junit=junit.xml",
    );
    expect(error(["list,json,./mine.ts"], "x")).toBe(
      "run: --output x is ambiguous: json and ./mine.ts each write a report; name each one's output instead, e.g. --reporter list,json=report.json,./mine.ts=PATH",
    );
    expect(error(["json=a.json"], "b.json")).toBe(
      "run: --output b.json has no reporter to go to: json=a.json already names its own; drop --output",
    );
    expect(error(["list,json=a.json"], "b.json")).toBe(
      "run: --output b.json has no reporter to go to: json=a.json already names its own; drop --output",
    );
    expect(error(["xml"])).toBe(
      'run: --reporter expects list, json, junit, html or the path of your own reporter (./my-reporter.ts), got "xml"',
    );
    expect(error(["json,"])).toBe("run: --reporter json,: a reporter is missing (an empty name between commas, or before =)");
    expect(error(["=x"])).toBe("run: --reporter =x: a reporter is missing (an empty name between commas, or before =)");
    expect(error(["json="])).toBe("run: --reporter json=: name its output after =, e.g. json=report.json");
    expect(error(["json", "json=r.json"])).toBe("run: --reporter json,json=r.json: json is chosen twice; choose each reporter once");
  });

  test("where a built-in's document goes: its output (html: the folder's index.html), or stdout, or html's default folder", () => {
    const html = { dir: "trailblaze-report", file: "index.html" };
    expect(reportDestination(undefined, "out/r.json", "/work")).toEqual({ path: "/work/out/r.json", shown: "out/r.json" });
    expect(reportDestination(undefined, undefined, "/work")).toBeUndefined();
    expect(reportDestination(html, "out", "/work")).toEqual({ path: "/work/out/index.html", shown: "out/index.html" });
    expect(reportDestination(html, undefined, "/nowhere-a-workspace")).toEqual({
      path: "/nowhere-a-workspace/trailblaze-report/index.html",
      shown: "trailblaze-report/index.html",
    });
  });
});
