// Screenshots beside captures: found by name, sniffed by their bytes, embedded as data: URLs under
// the cap, and left out with a note otherwise (one that links out of its folder too); loadCapture
// notes the one beside a capture.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadCapture } from "./load-capture.ts";
import { embedScreenshot, imageMime, isImageDataUrl, screenshotBeside, screenshotOutside, SCREENSHOT_CAP_BYTES } from "./screenshot.ts";
import { wireframeOf, withScreenshot } from "./wireframe.ts";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([4, 0, 0, 0]), Buffer.from("WEBPVP8 ")]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const CAPTURE = JSON.stringify({
  waypointId: "app/home",
  deviceWidth: 100,
  deviceHeight: 200,
  trailblazeNodeTree: { nodeId: 1, driverDetail: { class: "androidAccessibility" } },
});

function folder(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), "screenshot-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

describe("screenshots beside captures", () => {
  test("found by the capture's name: .webp first, then .png and .jpg; none for a file that is not .json", () => {
    const dir = folder({
      "home.example.json": CAPTURE,
      "home.example.webp": WEBP,
      "home.example.png": PNG,
      "login.example.json": CAPTURE,
      "login.example.png": PNG,
      "bare.example.json": CAPTURE,
    });
    expect(screenshotBeside(join(dir, "home.example.json"))).toBe(join(dir, "home.example.webp"));
    expect(screenshotBeside(join(dir, "login.example.json"))).toBe(join(dir, "login.example.png"));
    expect(screenshotBeside(join(dir, "bare.example.json"))).toBeUndefined();
    expect(screenshotBeside(join(dir, "home.example.webp"))).toBeUndefined();
  });

  test("the file a capture names (upstream's screenshotFile) comes first, when it is a file name in the capture's folder", () => {
    const dir = folder({ "home.example.json": CAPTURE, "home.example.webp": WEBP, "shot-of-home.png": PNG });
    expect(screenshotBeside(join(dir, "home.example.json"), "shot-of-home.png")).toBe(join(dir, "shot-of-home.png"));
    // A path is not followed, a missing file falls back to the name-based one.
    expect(screenshotBeside(join(dir, "home.example.json"), "../home.example.webp")).toBe(join(dir, "home.example.webp"));
    expect(screenshotBeside(join(dir, "home.example.json"), `${dir}/shot-of-home.png`)).toBe(join(dir, "home.example.webp"));
    expect(screenshotBeside(join(dir, "home.example.json"), "gone.png")).toBe(join(dir, "home.example.webp"));
  });

  test("the type comes from the bytes, not the name", () => {
    expect([
      imageMime(PNG),
      imageMime(WEBP),
      imageMime(JPEG),
      imageMime(Buffer.from("<svg onload=alert(1)>")),
      imageMime(Buffer.alloc(0)),
    ]).toEqual(["image/png", "image/webp", "image/jpeg", undefined, undefined]);
  });

  test("embedded as a data: URL under the cap; over it, unreadable or not an image, a note says why", () => {
    const dir = folder({
      "a.webp": WEBP,
      "b.png": Buffer.from("<svg onload=alert(1)></svg>"),
      "c.png": Buffer.concat([PNG, Buffer.alloc(2048)]),
    });
    expect(embedScreenshot(join(dir, "a.webp"))).toEqual({ screenshot: `data:image/webp;base64,${WEBP.toString("base64")}` });
    expect(embedScreenshot(join(dir, "b.png"))).toEqual({ screenshotNote: "screenshot b.png left out: not a WebP, PNG or JPEG image" });
    expect(embedScreenshot(join(dir, "c.png"), 1024)).toEqual({
      screenshotNote: "screenshot c.png left out: 2 KB is over the 1 KB that a page embeds; the wireframe is shown instead",
    });
    expect(embedScreenshot(join(dir, "gone.png"))).toEqual({ screenshotNote: "screenshot gone.png left out: cannot read it (ENOENT)" });
    expect(SCREENSHOT_CAP_BYTES).toBe(512 * 1024);
  });

  test("isImageDataUrl: a WebP, PNG or JPEG base64 data: URL within the cap, and nothing else", () => {
    expect(isImageDataUrl(`data:image/png;base64,${PNG.toString("base64")}`)).toBe(true);
    for (const value of [
      "javascript:alert(1)",
      "data:image/svg+xml;base64,PHN2Zz4=",
      "data:text/html;base64,PHNjcmlwdD4=",
      "data:image/png,rawbytes",
      `data:image/png;base64,AA"><script>`,
      `data:image/png;base64,${"A".repeat(SCREENSHOT_CAP_BYTES * 2)}`,
      42,
      undefined,
    ]) {
      expect(isImageDataUrl(value)).toBe(false);
    }
  });

  test("loadCapture notes the screenshot beside the capture; withScreenshot embeds it in the wireframe", async () => {
    const named = JSON.stringify({ ...JSON.parse(CAPTURE), screenshotFile: "login-shot.jpg" });
    const dir = folder({
      "home.example.json": CAPTURE,
      "home.example.png": PNG,
      "bare.example.json": CAPTURE,
      "login.example.json": named,
      "login-shot.jpg": JPEG,
    });
    const screen = await loadCapture(join(dir, "home.example.json"), "home.example.json");
    expect(screen.screenshot).toBe(join(dir, "home.example.png"));
    const login = await loadCapture(join(dir, "login.example.json"));
    expect({ named: login.screenshotFile, found: login.screenshot }).toEqual({
      named: "login-shot.jpg",
      found: join(dir, "login-shot.jpg"),
    });
    expect(withScreenshot(wireframeOf(login), login).screenshot).toStartWith("data:image/jpeg;base64,");
    expect(withScreenshot(wireframeOf(screen), screen).screenshot).toBe(`data:image/png;base64,${PNG.toString("base64")}`);
    const bare = await loadCapture(join(dir, "bare.example.json"));
    expect(bare.screenshot).toBeUndefined();
    expect(withScreenshot(wireframeOf(bare), bare)).toEqual(wireframeOf(bare));
  });
});

describe("a screenshot that is a symbolic link", () => {
  test("one leading out of the capture's folder (or the map's) is left out with a note before it is read; one staying inside is used", async () => {
    const outside = folder({ "private.png": PNG });
    const dir = folder({ "home.example.json": CAPTURE, "inner.png": PNG, "near.example.json": CAPTURE });
    symlinkSync(join(outside, "private.png"), join(dir, "home.example.png"));
    symlinkSync("inner.png", join(dir, "near.example.png"));
    const note =
      "screenshot home.example.png left out: it is a symbolic link that leads outside the capture's folder; only pictures inside it are embedded";
    expect(screenshotOutside(join(dir, "home.example.png"), dir, "the capture's folder")).toBe(note);
    expect(screenshotOutside(join(dir, "near.example.png"), dir, "the capture's folder")).toBeUndefined();
    expect(screenshotOutside(join(dir, "inner.png"), dir, "the capture's folder")).toBeUndefined();

    const home = await loadCapture(join(dir, "home.example.json"));
    expect({ screenshot: home.screenshot, note: home.screenshotNote }).toEqual({ screenshot: undefined, note });
    expect(withScreenshot(wireframeOf(home), home)).toEqual({ ...wireframeOf(home), screenshotNote: note });
    expect((await loadCapture(join(dir, "near.example.json"))).screenshot).toBe(join(dir, "near.example.png"));

    // A map's capture in a folder of its own may use a picture elsewhere in the map, not outside it.
    const map = folder({});
    mkdirSync(join(map, "waypoints"));
    mkdirSync(join(map, "pictures"));
    writeFileSync(join(map, "pictures/home.png"), PNG);
    writeFileSync(join(map, "waypoints/home.example.json"), CAPTURE);
    symlinkSync("../pictures/home.png", join(map, "waypoints/home.example.png"));
    const within = { folder: map, what: "the map's folder" };
    expect((await loadCapture(join(map, "waypoints/home.example.json"), "home", within)).screenshot).toBe(
      join(map, "waypoints/home.example.png"),
    );
    expect((await loadCapture(join(map, "waypoints/home.example.json"))).screenshotNote).toStartWith(
      "screenshot home.example.png left out: it is a symbolic link that leads outside the capture's folder",
    );
  });
});
