// Where the CLI writes stays where it says: scaffolds (init, init-tool) inside the workspace,
// session logs inside their logs folder, the build caches inside `.cache/`, the default
// trailblaze-client.d.ts inside the workspace and an `mcp --record/--trail` FILE where it led when
// the session started, checked on the real path, so a symbolic link in the workspace cannot carry
// a write outside it; and a --session-id (or one seeded by --test-name) is one safe folder name,
// so `..` cannot put calls.jsonl in the workspace root. Every refusal exits 2 and writes nothing.

import { describe, expect, test } from "bun:test";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { cli, cliProcess, REPO, tempDir } from "./support/cli.ts";
import { serve, waitGone } from "./support/mcp-serve.ts";
import { copyFixture } from "./support/workspace-copy.ts";

/** Every file and link under `dir` (relative paths, sorted), node_modules left out. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory() && !`${e.parentPath}/`.includes("/node_modules/") && e.name !== "node_modules")
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** A folder outside the workspace a link points at, with one file in it, and a way to tell it was not written. */
function outsideFolder(): { dir: string; untouched: () => boolean } {
  const dir = realpathSync(tempDir("boundary-outside"));
  writeFileSync(join(dir, "keep.txt"), "keep\n");
  return {
    dir,
    untouched: () =>
      JSON.stringify(listing(dir)) === JSON.stringify(["keep.txt"]) && readFileSync(join(dir, "keep.txt"), "utf8") === "keep\n",
  };
}

/** A copy of init-tool's fixture workspace, resolving packages from the repository. */
function initToolWorkspace(): string {
  const ws = join(realpathSync(tempDir("boundary-init-tool")), "ws");
  copyFixture(join(REPO, "fixtures/scripting/init-workspace"), ws);
  symlinkSync(join(REPO, "node_modules"), join(ws, "node_modules"));
  return ws;
}

describe("init-tool through a symbolic link", () => {
  const refusal = (ws: string, flag: string, to: string) =>
    `error: init-tool: --dir ${flag} leads to ${to} through a symbolic link, outside the workspace root ${ws}; scaffolds are written inside the workspace only. ` +
    "Pick a folder inside it (e.g. --dir tools/myapp); nothing was written\n";

  test("--dir naming a link to outside the workspace (or a folder below one) is refused, per-file tool and server alike", async () => {
    const ws = initToolWorkspace();
    const outside = outsideFolder();
    symlinkSync(outside.dir, join(ws, "tools/link"));
    const before = listing(ws);
    expect(await cli(["init-tool", "applyCoupon", "--dir", "tools/link"], { cwd: ws })).toEqual({
      code: 2,
      stdout: "",
      stderr: refusal(ws, "tools/link", outside.dir),
    });
    expect(await cli(["init-tool", "applyCoupon", "--server", "--dir", "tools/link"], { cwd: ws })).toEqual({
      code: 2,
      stdout: "",
      stderr: refusal(ws, "tools/link", outside.dir),
    });
    const deeper = await cli(["init-tool", "applyCoupon", "--server", "--dir", "tools/link/new/deep"], { cwd: ws });
    expect(deeper).toEqual({ code: 2, stdout: "", stderr: refusal(ws, "tools/link/new/deep", join(outside.dir, "new/deep")) });
    expect(outside.untouched()).toBe(true);
    expect(listing(ws)).toEqual(before);
  });

  test("the default folder being a link to outside is refused before anything is written, per-file tool and server alike", async () => {
    const ws = initToolWorkspace();
    const outside = outsideFolder();
    cpSync(join(ws, "tools/myapp"), join(outside.dir, "myapp"), { recursive: true });
    rmSync(join(ws, "tools/myapp"), { recursive: true });
    symlinkSync(join(outside.dir, "myapp"), join(ws, "tools/myapp"));
    const outsideBefore = listing(outside.dir);
    const before = listing(ws);
    for (const argv of [
      ["init-tool", "applyCoupon", "--server"],
      ["init-tool", "applyCoupon"],
    ]) {
      const run = await cli(argv, { cwd: ws });
      const file = argv.includes("--server") ? "applyCoupon.ts" : "myapp_applyCoupon.ts";
      expect(run.code).toBe(2);
      expect(run.stderr).toStartWith(
        `error: init-tool: refusing to write outside the workspace root ${ws}: tools/myapp/${file} (through a symbolic link, ${join(outside.dir, "myapp", file)}), `,
      );
      expect(run.stderr).toEndWith(". Scaffolds are written inside the workspace only; nothing was written\n");
    }
    expect(listing(outside.dir)).toEqual(outsideBefore);
    expect(listing(ws)).toEqual(before);
  });
});

describe("init through a symbolic link", () => {
  test("a workspace folder (tools/) or file (package.json) linked to outside is refused; nothing is written anywhere", async () => {
    const outside = outsideFolder();
    const here = join(realpathSync(tempDir("boundary-init")), "project");
    mkdirSync(here);
    symlinkSync(outside.dir, join(here, "tools"));
    const run = await cli(["init"], { cwd: here });
    expect(run.code).toBe(2);
    expect(run.stderr).toStartWith(
      `error: init: refusing to write outside the workspace root ${here}: tools/app/greet.ts (through a symbolic link, ${join(outside.dir, "app/greet.ts")})`,
    );
    expect(outside.untouched()).toBe(true);
    expect(readdirSync(here)).toEqual(["tools"]);

    const linkedPackage = join(realpathSync(tempDir("boundary-init")), "project");
    mkdirSync(linkedPackage);
    writeFileSync(join(outside.dir, "package.json"), '{ "name": "not-yours" }\n');
    symlinkSync(join(outside.dir, "package.json"), join(linkedPackage, "package.json"));
    const again = await cli(["init"], { cwd: linkedPackage });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`package.json (through a symbolic link, ${join(outside.dir, "package.json")})`);
    expect(readFileSync(join(outside.dir, "package.json"), "utf8")).toBe('{ "name": "not-yours" }\n');
    expect(readdirSync(linkedPackage)).toEqual(["package.json"]);
  });
});

/** A workspace with one target (framework tools only) and one trail, outside the repository. */
function sessionWorkspace(): string {
  const ws = join(realpathSync(tempDir("boundary-session")), "ws");
  mkdirSync(join(ws, "trailblaze-config/targets"), { recursive: true });
  mkdirSync(join(ws, "trails"));
  writeFileSync(join(ws, "trailblaze-config/targets/app.yaml"), "id: app\nplatforms:\n  android: {}\n");
  writeFileSync(
    join(ws, "trails/t.trail.yaml"),
    "config:\n  id: t\n  target: app\ntrail:\n  - step: Compare\n    recording:\n      tools:\n        - assertEquals: { actual: 1, expected: 1 }\n",
  );
  return ws;
}

describe("--session-id is one safe folder name", () => {
  const rule = (id: string) =>
    `error: --session-id must be 1 to 128 letters, digits, ".", "_" and "-", starting with a letter or digit (it names the session's logs folder, e.g. nightly-42); got "${id}"\n`;
  const commands: Record<string, string[]> = {
    run: ["run", "trails/t.trail.yaml"],
    call: ["call", "assertEquals", "--args", '{"actual":1,"expected":1}'],
    tools: ["tools"],
    mcp: ["mcp"],
  };

  for (const id of ["..", ".", "a/b", "../x", "-x", "x".repeat(129)]) {
    for (const [name, argv] of Object.entries(commands)) {
      test(`${name} --session-id ${id.length > 20 ? `${id.slice(0, 8)}… (${id.length})` : id}: exit 2, nothing written`, async () => {
        const ws = sessionWorkspace();
        const parentBefore = listing(join(ws, ".."));
        // mcp serves on stdin: a real process, whose stdin is empty, so a session it did start would end.
        const run =
          name === "mcp"
            ? await cliProcess([...argv, `--session-id=${id}`], { cwd: ws })
            : await cli([...argv, `--session-id=${id}`], { cwd: ws });
        expect(run.code).toBe(2);
        if (id.includes("/")) expect(run.stderr).toContain("--session-id");
        else expect(run.stderr).toBe(rule(id));
        expect(listing(join(ws, ".."))).toEqual(parentBefore);
        expect(existsSync(join(ws, "logs"))).toBe(false);
      });
    }
  }

  test("with several trails, the suffixed ids must be session ids too: refused before any trail starts", async () => {
    const ws = sessionWorkspace();
    cpSync(join(ws, "trails/t.trail.yaml"), join(ws, "trails/u.trail.yaml"));
    const id = "x".repeat(127);
    const run = await cli(["run", "trails", "--session-id", id], { cwd: ws });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error: run: --session-id ${id} names 2 sessions here, ${id}-1 to ${id}-2, and those are over 128 characters: give a shorter id\n`,
    );
    expect(existsSync(join(ws, "logs"))).toBe(false);
  });

  test("a safe id is used as given", async () => {
    const ws = sessionWorkspace();
    const run = await cli(["run", "trails/t.trail.yaml", "--session-id", "Nightly_42.a-b"], { cwd: ws });
    expect(run.code).toBe(0);
    expect(existsSync(join(ws, "logs/Nightly_42.a-b/calls.jsonl"))).toBe(true);
  });
});

describe("session logs through a symbolic link", () => {
  test("logs/ at the workspace root linked to outside it is refused; nothing is written there", async () => {
    const ws = sessionWorkspace();
    const outside = outsideFolder();
    symlinkSync(outside.dir, join(ws, "logs"));
    const run = await cli(["call", "assertEquals", "--args", '{"actual":1,"expected":1}', "--session-id", "s1"], { cwd: ws });
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `error: the session's logs folder ${join(ws, "logs/s1")} leads outside the workspace root ${ws} (to ${join(outside.dir, "s1")}, through a symbolic link); ` +
        "logs are only written inside it: remove the link, or give another folder with --logs DIR\n",
    });
    const trail = await cli(["run", "trails/t.trail.yaml", "--session-id", "s2"], { cwd: ws });
    expect(trail.code).toBe(2);
    expect(outside.untouched()).toBe(true);
  });

  test("a session folder, or a log file in it, linked to outside is refused; --logs elsewhere is the user's choice", async () => {
    const ws = sessionWorkspace();
    const outside = outsideFolder();
    const logs = realpathSync(tempDir("boundary-logs"));
    symlinkSync(outside.dir, join(logs, "linked"));
    const folder = await cli(["run", "trails/t.trail.yaml", "--logs", logs, "--session-id", "linked"], { cwd: ws });
    expect(folder.code).toBe(2);
    expect(outside.untouched()).toBe(true);

    mkdirSync(join(logs, "mine"));
    symlinkSync(join(outside.dir, "keep.txt"), join(logs, "mine/calls.jsonl"));
    const file = await cli(["run", "trails/t.trail.yaml", "--logs", logs, "--session-id", "mine"], { cwd: ws });
    expect(file.code).toBe(2);
    expect(file.stdout + file.stderr).toContain(
      `${join(logs, "mine/calls.jsonl")} is a symbolic link; the CLI does not write its logs through one. Remove it, or use another --session-id`,
    );
    expect(outside.untouched()).toBe(true);

    const fine = await cli(["run", "trails/t.trail.yaml", "--logs", logs, "--session-id", "fresh"], { cwd: ws });
    expect(fine.code).toBe(0);
    expect(existsSync(join(logs, "fresh/calls.jsonl"))).toBe(true);
  });
});

/** A workspace whose target has a per-file tool run in QuickJS and one run as a host subprocess: with --agent host, a session writes every build cache. */
function cacheWorkspace(): string {
  const ws = sessionWorkspace();
  writeFileSync(
    join(ws, "trailblaze-config/targets/app.yaml"),
    "id: app\ntools:\n  - app_greet\n  - app_note\nplatforms:\n  android: {}\n",
  );
  mkdirSync(join(ws, "tools"));
  writeFileSync(
    join(ws, "tools/app_greet.ts"),
    'import { trailblaze } from "@trailblaze/scripting";\n\n/** Greets someone. */\nexport const app_greet = trailblaze.tool<{ name: string }>(async (input) => `hello ${input.name}`);\n',
  );
  writeFileSync(join(ws, "tools/app_note.yaml"), "script: ./app_note.js\nname: app_note\ndescription: Says a note.\nruntime: subprocess\n");
  writeFileSync(join(ws, "tools/app_note.js"), 'export async function app_note() {\n  return "noted";\n}\n');
  return ws;
}

const TOOLS_HOST = ["tools", "--agent", "host", "--logs"];
const listTools = (ws: string) => cli([...TOOLS_HOST, tempDir("boundary-cache-logs")], { cwd: ws });

/**
 * As listTools, in a process of its own: a process checks each cache folder once and keeps the
 * servers' images in memory (writing one to disk only when it has none). With host servers
 * precompiled, which TRAILBLAZE_PRECOMPILE=0 (how cliProcess runs the sources) turns off: the
 * precompiled CLI, built from the same sources, runs instead.
 */
const freshListTools = (ws: string) =>
  cliProcess([...TOOLS_HOST, tempDir("boundary-cache-logs")], { cwd: ws, env: { TRAILBLAZE_PRECOMPILE: undefined } });

describe("build caches through a symbolic link", () => {
  const refusal = (ws: string, link: string, to: string) =>
    `error: ${link} is a symbolic link to ${to}, outside the build cache ${join(ws, ".cache")}; the CLI writes its caches only inside it. ` +
    `Remove the link (the cache is rebuilt as needed: removing ${join(ws, ".cache")} entirely is safe too) and run again\n`;

  for (const folder of [
    "trailblaze-tool-schemas",
    "trailblaze-tools",
    "trailblaze-packages",
    "trailblaze-packages/node_modules/@trailblaze",
    "trailblaze-bundles",
    "trailblaze-host-bundles",
    "trailblaze-listings",
  ]) {
    test(`.cache/${folder} linked to outside: exit 2 naming the link, nothing written there`, async () => {
      const ws = cacheWorkspace();
      const outside = outsideFolder();
      mkdirSync(join(ws, ".cache", folder, ".."), { recursive: true });
      symlinkSync(outside.dir, join(ws, ".cache", folder));
      const run = await listTools(ws);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toEndWith(refusal(ws, join(ws, ".cache", folder), outside.dir));
      expect(outside.untouched()).toBe(true);
    });
  }

  test(".cache/trailblaze-images linked to outside: the images are not written (they only speed up a start); the session runs", async () => {
    const ws = cacheWorkspace();
    const outside = outsideFolder();
    mkdirSync(join(ws, ".cache"));
    symlinkSync(outside.dir, join(ws, ".cache/trailblaze-images"));
    const run = await freshListTools(ws);
    expect(run.code).toBe(0);
    expect(outside.untouched()).toBe(true);
  });

  test("a host bundle's folder linked to outside is refused; a cached file that is a link is replaced, not written through", async () => {
    const ws = cacheWorkspace();
    expect((await freshListTools(ws)).code).toBe(0);
    const bundles = join(ws, ".cache/trailblaze-host-bundles");
    const stem = readdirSync(bundles)
      .find((name) => name.endsWith(".json"))!
      .slice(0, -".json".length);
    const outside = outsideFolder();

    // The map Bun writes beside the bundle: a link there to a file outside, and the entry rebuilt.
    rmSync(join(bundles, `${stem}.json`));
    rmSync(join(bundles, stem, "app-subprocess.js.map"));
    symlinkSync(join(outside.dir, "keep.txt"), join(bundles, stem, "app-subprocess.js.map"));
    expect((await freshListTools(ws)).code).toBe(0);
    expect(outside.untouched()).toBe(true);
    expect(readFileSync(join(bundles, stem, "app-subprocess.js.map"), "utf8")).toStartWith("{");

    // The entry's own folder a link to outside.
    rmSync(join(bundles, `${stem}.json`));
    rmSync(join(bundles, stem), { recursive: true });
    symlinkSync(outside.dir, join(bundles, stem));
    const run = await freshListTools(ws);
    expect(run.code).toBe(2);
    expect(run.stderr).toEndWith(refusal(ws, join(bundles, stem), outside.dir));
    expect(outside.untouched()).toBe(true);
  });

  test(".cache itself a link (a cache moved to another disk) is used: the builds are written where it leads", async () => {
    const ws = cacheWorkspace();
    const elsewhere = realpathSync(tempDir("boundary-cache-disk"));
    symlinkSync(elsewhere, join(ws, ".cache"));
    expect((await freshListTools(ws)).code).toBe(0);
    expect(readdirSync(elsewhere).sort()).toEqual([
      "trailblaze-bundles",
      "trailblaze-host-bundles",
      "trailblaze-images",
      "trailblaze-listings",
      "trailblaze-packages",
      "trailblaze-tool-schemas",
      "trailblaze-tools",
    ]);
  });
});

describe("types' default output through a symbolic link", () => {
  test("tools/ linked to outside the workspace: refused, nothing written there; -o names another file", async () => {
    const ws = sessionWorkspace();
    const outside = outsideFolder();
    symlinkSync(outside.dir, join(ws, "tools"));
    const run = await cli(["types", "--logs", tempDir("boundary-types-logs")], { cwd: ws });
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `error: types: tools/trailblaze-client.d.ts leads to ${join(outside.dir, "trailblaze-client.d.ts")} through a symbolic link, outside the workspace root ${ws}; ` +
        "the default output is written inside the workspace only. Remove the link, or name the file with -o FILE; nothing was written\n",
    });
    expect(outside.untouched()).toBe(true);
    const named = await cli(["types", "--logs", tempDir("boundary-types-logs"), "-o", "client.d.ts"], { cwd: ws });
    expect(named.code).toBe(0);
    expect(existsSync(join(ws, "client.d.ts"))).toBe(true);
  });
});

describe("mcp --record / --trail FILE through a symbolic link", () => {
  const refusal = (ws: string, flag: string, file: string, to: string) =>
    `error: mcp: ${flag} ${file} leads to ${to} through a symbolic link, outside the workspace root ${ws}; the trail is not written through it. ` +
    `Remove the link, or name the file where it really is (${flag} ${to})\n`;

  test("FILE a link to outside the workspace (a trail there, or nothing yet), or in a folder linked there: exit 2, nothing written", async () => {
    const ws = sessionWorkspace();
    const outside = outsideFolder();
    cpSync(join(ws, "trails/t.trail.yaml"), join(outside.dir, "t.trail.yaml"));
    symlinkSync(join(outside.dir, "t.trail.yaml"), join(ws, "trails/linked.trail.yaml"));
    symlinkSync(join(outside.dir, "new.trail.yaml"), join(ws, "trails/dangling.trail.yaml"));
    symlinkSync(outside.dir, join(ws, "elsewhere"));
    const cases: [string, string, string][] = [
      ["--trail", "trails/linked.trail.yaml", join(outside.dir, "t.trail.yaml")],
      ["--record", "trails/dangling.trail.yaml", join(outside.dir, "new.trail.yaml")],
      ["--record", "elsewhere/new.trail.yaml", join(outside.dir, "new.trail.yaml")],
    ];
    for (const [flag, file, to] of cases) {
      const run = await cliProcess(["mcp", flag, file, "--logs", tempDir("boundary-mcp-logs")], { cwd: ws });
      expect(run).toEqual({ code: 2, stdout: "", stderr: refusal(ws, flag, file, to) });
    }
    expect(listing(outside.dir)).toEqual(["keep.txt", "t.trail.yaml"]);
    expect(readFileSync(join(outside.dir, "t.trail.yaml"), "utf8")).toBe(readFileSync(join(ws, "trails/t.trail.yaml"), "utf8"));
  });

  test("the trail's folder replaced by a link mid-session: the next rewrite is refused and nothing is written there", async () => {
    const ws = sessionWorkspace();
    const outside = outsideFolder();
    const served = await serve(["--record", "trails/rec.trail.yaml", "--logs", tempDir("boundary-mcp-logs")], { cwd: ws });
    try {
      const compare = () => served.client.callTool({ name: "assertEquals", arguments: { actual: 1, expected: 1 } });
      expect((await compare()).isError).toBeFalsy();
      expect(readFileSync(join(ws, "trails/rec.trail.yaml"), "utf8")).toContain("assertEquals");

      renameSync(join(ws, "trails"), join(ws, "trails-moved"));
      symlinkSync(outside.dir, join(ws, "trails"));
      await expect(compare()).rejects.toThrow(
        `mcp: --record trails/rec.trail.yaml: its folder ${join(ws, "trails")} now leads to ${outside.dir} (a symbolic link was put there since the session started); ` +
          "nothing was written. Put the file or folder back, then start trailblaze mcp --record again",
      );
      expect(outside.untouched()).toBe(true);
    } finally {
      await served.close();
    }
    expect(await waitGone([served.pid])).toEqual([]);
  });
});

describe("--test-name seeds a valid session id", () => {
  for (const name of ["_x", "..x", "n".repeat(300)]) {
    test(`run --test-name ${name.length > 20 ? `${name.slice(0, 8)}… (${name.length})` : name}: the trail runs, its logs in one folder named from it`, async () => {
      const ws = sessionWorkspace();
      const run = await cli(["run", "trails/t.trail.yaml", "--test-name", name], { cwd: ws });
      expect(run.code).toBe(0);
      const [folder, ...more] = readdirSync(join(ws, "logs"));
      expect(more).toEqual([]);
      const seed = name.replace(/^[._-]+/, "").slice(0, 105);
      expect(folder).toMatch(new RegExp(`^${seed}-\\d{8}-\\d{6}-[0-9a-f]{6}$`));
      expect(folder!.length).toBeLessThanOrEqual(128);
      expect(existsSync(join(ws, "logs", folder!, "calls.jsonl"))).toBe(true);
    });
  }
});

describe("screenshots beside captures through a symbolic link", () => {
  /** A copy of the report fixture's calendar map whose day view screenshot links to a picture outside it, and settings' to one inside. */
  function linkedMap() {
    const ws = realpathSync(tempDir("boundary-shots"));
    copyFixture(join(REPO, "fixtures/report"), ws);
    const waypoints = join(ws, "maps/calendar/waypoints");
    // A real picture outside the map (a WebP: it would be embedded if the link were followed).
    const outside = realpathSync(tempDir("boundary-shots-outside"));
    const picture = join(outside, "private.webp");
    cpSync(join(waypoints, "calendar_android_day_view.example.webp"), picture);
    writeFileSync(picture, Buffer.concat([readFileSync(picture), Buffer.from("PRIVATE-PICTURE-BYTES")]));
    rmSync(join(waypoints, "calendar_android_day_view.example.webp"));
    symlinkSync(picture, join(waypoints, "calendar_android_day_view.example.webp"));
    // A link that stays inside the map is followed as before.
    mkdirSync(join(ws, "maps/calendar/pictures"));
    renameSync(join(waypoints, "calendar_android_settings_root.example.webp"), join(ws, "maps/calendar/pictures/settings.webp"));
    symlinkSync("../pictures/settings.webp", join(waypoints, "calendar_android_settings_root.example.webp"));
    return { ws, secret: readFileSync(picture).toString("base64").slice(-40) };
  }
  const NOTE =
    "screenshot calendar_android_day_view.example.webp left out: it is a symbolic link that leads outside the map's folder; only pictures inside it are embedded";

  test("map --html leaves out a screenshot that links out of the map, with a note; one linked inside it is shown", async () => {
    const { ws, secret } = linkedMap();
    const mapped = await cli(["map", "maps/calendar", "--html", "map.html"], { cwd: ws });
    expect(mapped.code).toBe(0);
    const page = readFileSync(join(ws, "map.html"), "utf8");
    expect(page).not.toContain(secret);
    expect(page).toContain(NOTE);
    const inside = readFileSync(join(ws, "maps/calendar/pictures/settings.webp")).toString("base64");
    expect(page).toContain(inside.slice(-40));
  });

  test("run's reports leave it out the same way: the JSON report's screens and the HTML report hold none of its bytes", async () => {
    const { ws, secret } = linkedMap();
    const flags = [
      "--map",
      "maps/calendar",
      "--start",
      "calendar/android/day_view",
      "--no-logging",
      "--secret",
      "calendarPassword=hunter2",
    ];
    const run = await cli(["run", "trails/theme-picker.trail.yaml", ...flags, "--reporter", "json=out/report.json,html=out"], { cwd: ws });
    expect(run.code).toBe(0);
    const report = readFileSync(join(ws, "out/report.json"), "utf8");
    const screens = Object.values(
      (JSON.parse(report) as { screens: Record<string, { waypoint?: string; screenshotNote?: string }> }).screens,
    );
    expect(screens.find((s) => s.waypoint === "calendar/android/day_view")?.screenshotNote).toBe(NOTE);
    for (const text of [report, readFileSync(join(ws, "out/index.html"), "utf8")]) {
      expect(text).not.toContain(secret);
      expect(text).toContain(NOTE);
    }
  });
});
