// The screenshot upstream's trailmaps ship beside a capture (`<name>.example.webp` or `.png` beside
// `<name>.example.json`, named by the capture's `screenshotFile`): finding it, and reading it into a `data:` URL that a page or an SVG can
// embed as it is (no image library: the bytes are sniffed for WebP, PNG or JPEG and passed
// through). One over SCREENSHOT_CAP_BYTES, or not an image, is left out with a note that says why;
// so is one that leads out of the map or capture folder through a symbolic link (a picture of
// anything on the machine would otherwise be embedded in a page that is shared), as logs and
// recordings refuse such links.

import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { escapesTo } from "../core/real-path.ts";

/** The largest screenshot embedded, in bytes (upstream's are about 29 KB); a larger one is left out with a note. */
export const SCREENSHOT_CAP_BYTES = 512 * 1024;

/** Extensions tried beside a capture, in order. */
const EXTENSIONS = [".webp", ".png", ".jpg", ".jpeg"];

/** A data: URL of a WebP, PNG or JPEG in base64, and nothing else (what reports accept and pictures draw). */
export const IMAGE_DATA_URL = /^data:image\/(?:webp|png|jpeg);base64,[A-Za-z0-9+/]*={0,2}$/;

/** The longest such URL a screenshot under the cap makes: base64 of the cap, plus the prefix. */
export const IMAGE_DATA_URL_MAX = Math.ceil(SCREENSHOT_CAP_BYTES / 3) * 4 + "data:image/jpeg;base64,".length;

/** Whether `value` is an embeddable image (see IMAGE_DATA_URL), no longer than IMAGE_DATA_URL_MAX. */
export function isImageDataUrl(value: unknown): value is string {
  return typeof value === "string" && value.length <= IMAGE_DATA_URL_MAX && IMAGE_DATA_URL.test(value);
}

function isFile(file: string): boolean {
  try {
    return existsSync(file) && statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The screenshot file beside `captureFile`, when there is one: the one the capture names
 * (`screenshotFile`, upstream's field: a plain file name in the capture's folder; a path is not
 * followed), else `x.example.json` → `x.example.webp`, `.png`, `.jpg`.
 */
export function screenshotBeside(captureFile: string, named?: string): string | undefined {
  if (named !== undefined && !/[\\/]/.test(named) && named !== "." && named !== "..") {
    const file = join(dirname(captureFile), named);
    if (isFile(file)) return file;
  }
  const stem = captureFile.replace(/\.json$/i, "");
  if (stem === captureFile) return undefined;
  return EXTENSIONS.map((ext) => stem + ext).find(isFile);
}

/**
 * Why the screenshot at `file` is not embedded when it leads out of `folder` (`where`: the map's
 * folder, or the capture's own) through a symbolic link; undefined when it stays inside. The note
 * goes into pages and reports, so it names the link, not where it leads.
 */
export function screenshotOutside(file: string, folder: string, where: string): string | undefined {
  return escapesTo(folder, file) === undefined
    ? undefined
    : `screenshot ${basename(file)} left out: it is a symbolic link that leads outside ${where}; only pictures inside it are embedded`;
}

/** The image type of `bytes` by their signature (WebP, PNG, JPEG), or undefined. */
export function imageMime(bytes: Uint8Array): "image/webp" | "image/png" | "image/jpeg" | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(1, 4) === "PNG" && bytes[4] === 0x0d && bytes[5] === 0x0a) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  return undefined;
}

/** What a picture shows of a screenshot: the image as a data: URL, or why it is left out. */
type EmbeddedScreenshot = { screenshot: string } | { screenshotNote: string };

/** Reads the screenshot at `file` into a data: URL; `{screenshotNote}` when it is too large, unreadable or not an image. */
export function embedScreenshot(file: string, cap: number = SCREENSHOT_CAP_BYTES): EmbeddedScreenshot {
  const name = basename(file);
  let bytes: Buffer;
  try {
    const size = statSync(file).size;
    if (size > cap)
      return {
        screenshotNote: `screenshot ${name} left out: ${Math.round(size / 1024)} KB is over the ${Math.round(cap / 1024)} KB that a page embeds; the wireframe is shown instead`,
      };
    bytes = readFileSync(file);
  } catch (error) {
    return { screenshotNote: `screenshot ${name} left out: cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  const mime = imageMime(bytes);
  if (!mime) return { screenshotNote: `screenshot ${name} left out: not a WebP, PNG or JPEG image` };
  return { screenshot: `data:${mime};base64,${bytes.toString("base64")}` };
}
