// Where server images are kept: in the process (or worker thread), and on disk so that a fresh
// process's first session of a server is restored too, not evaluated:
// `.cache/trailblaze-images/<name>-<engine>-<main|thread>-<key hash>.img`, one per server, engine
// and environment (writing one removes the server's older ones), and beside it the image taken
// after the server's handshake, `….handshake.img`, so that a fresh process's first session has its
// handshake answered from the record too. A file is a header line of JSON (the layout, the
// handles, the runs, the console lines, the handshake) and the runs' bytes; anything that does not
// read back whole is ignored, and the session evaluates its bundle (or answers its handshake) and
// writes the file again.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";
import { writeAtomically } from "../src/core/cache-files.ts";
import { quickJsBuildStamp, type QuickJsEngine } from "./quickjs-module.ts";
import type { HandshakeRecord } from "./handshake.ts";
import type { LogLevel } from "./sandbox-bridge.ts";
import { ImageCache, sameLayout, type SandboxImage } from "./sandbox-image.ts";

/** A server's image: its sandbox's, and the console lines its bundle wrote while evaluating. */
export interface ServerImage extends SandboxImage {
  logs: [LogLevel, string][];
}

/** A server's image taken once it answered a client's handshake, with what it answered (handshake.ts). */
export interface HandshakeImage extends ServerImage {
  handshake: HandshakeRecord;
}

/** Memory the images of servers may hold, per process (or worker thread). */
const IMAGE_CACHE_BYTES = 128 * 1024 * 1024;

/** Images of servers that started in this process: the next session of each restores one. */
const images = new ImageCache<ServerImage>(IMAGE_CACHE_BYTES);

/** Where one server's image is looked up and kept. */
export interface ImageSlot {
  /** Everything the image depends on that may differ within a process: the engine, limits, the name (in stack traces), the bundle (by number). */
  key: string;
  /** The file, and the digest of its key (the in-process key with the prelude and the installed build), worked out only when the process has no image. */
  disk: (() => DiskSlot) | undefined;
}

const safeName = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80);

/**
 * A number per bundle text, so that keys stay short: a key holding the bundle was hashed whole
 * (hundreds of KB) at each of a start's lookups, ~0.4 ms of it. The same text (the build cache's
 * string) hashes once. Forgotten wholesale past BUNDLE_IDS texts: new numbers only cost images.
 */
const bundleIds = new Map<string, number>();
const BUNDLE_IDS = 256;
let nextBundleId = 1;

function bundleId(code: string): number {
  let id = bundleIds.get(code);
  if (id === undefined) {
    if (bundleIds.size >= BUNDLE_IDS) bundleIds.clear();
    id = nextBundleId++;
    bundleIds.set(code, id);
  }
  return id;
}

export function imageSlot(
  server: { engine: QuickJsEngine; memoryLimitBytes: number; stackLimitBytes: number; name: string; code: string; prelude: string },
  dir: string | undefined,
): ImageSlot {
  const limits = `${server.engine}\0${server.memoryLimitBytes}\0${server.stackLimitBytes}\0${server.name}`;
  const key = `${limits}\0#${bundleId(server.code)}`;
  if (dir === undefined) return { key, disk: undefined };
  let disk: DiskSlot | undefined;
  return {
    key,
    // Hashing the bundle and the prelude for the file name is most of a start that restores from the process's image: only when needed.
    disk: () => {
      if (disk) return disk;
      const digest = new Bun.CryptoHasher("sha256")
        .update(`${quickJsBuildStamp(server.engine)}\0${server.prelude}\0${limits}\0${server.code}`)
        .digest("hex");
      // The setup lands at other addresses on a worker thread than on the main thread: an image for each.
      const environment = `${server.engine}-${isMainThread ? "main" : "thread"}`;
      disk = { file: join(dir, `${safeName(server.name)}-${environment}-${digest.slice(0, 24)}.img`), digest };
      return disk;
    },
  };
}

/** The slot's image: the process's, else the one on disk (then kept in the process too). */
export function findImage(slot: ImageSlot): ServerImage | undefined {
  let image = images.get(slot.key);
  if (!image && slot.disk) {
    image = readImageFile(slot.disk());
    if (image) images.set(slot.key, image);
  }
  return image;
}

/**
 * Handshake images, by slot key, in the process (the cache's budget is shared) and on disk. A
 * server whose handshake cannot be imaged, or whose clients open differently, is not tried again
 * in the process (its file stays, for the clients that open as the recorded one did).
 */
const handshakeKey = (slot: ImageSlot) => `${slot.key}\0handshake`;
const noHandshakeImage = new Set<string>();
/** Slots whose handshake file this process has read (or found missing): once is enough. */
const handshakeFilesRead = new Set<string>();

/**
 * The slot's image after a handshake, when it belongs with `boot`: a session that turns out to
 * need the guest is rewound to `boot`, which must hold the same handles at the same addresses. A
 * handshake image of an earlier boot image (a bundle evaluated again) is left for a new one.
 */
export function findHandshakeImage(slot: ImageSlot, boot: ServerImage): HandshakeImage | undefined {
  if (noHandshakeImage.has(slot.key)) return undefined;
  const key = handshakeKey(slot);
  let image = images.get(key) as HandshakeImage | undefined;
  if (!image && slot.disk && !handshakeFilesRead.has(slot.key)) {
    handshakeFilesRead.add(slot.key);
    const read = readImageFile(handshakeFileOf(slot.disk()));
    if (read && isHandshakeRecord((read as Partial<HandshakeImage>).handshake)) {
      image = read as HandshakeImage;
      images.set(key, image);
    }
  }
  if (image && !sameLineage(image, boot)) {
    images.delete(key);
    return undefined;
  }
  return image;
}

function sameLineage(a: SandboxImage, b: SandboxImage): boolean {
  return sameLayout(a.layout, b.layout) && a.handles.fireTimer === b.handles.fireTimer && a.handles.receive === b.handles.receive;
}

function isHandshakeRecord(value: unknown): value is HandshakeRecord {
  const exchange = (part: unknown) =>
    typeof part === "object" &&
    part !== null &&
    typeof (part as { params?: unknown }).params === "string" &&
    typeof (part as { result?: unknown }).result === "string";
  return (
    typeof value === "object" &&
    value !== null &&
    exchange((value as HandshakeRecord).initialize) &&
    exchange((value as HandshakeRecord).list)
  );
}

/** Servers one of whose sessions is recording its handshake: the others of the moment do not (measuring the setup and imaging cost a few ms each). */
const recording = new Set<string>();

/**
 * Whether a session of the slot's server is to record its handshake for an image: when none is,
 * and the server has neither an image past its handshake nor a refusal. Then the session owns the
 * recording until `keepHandshakeImage`, `refuseHandshakeImage` or `releaseHandshakeRecording`.
 */
export function claimHandshakeRecording(slot: ImageSlot): boolean {
  if (recording.has(slot.key) || noHandshakeImage.has(slot.key) || images.get(handshakeKey(slot))) return false;
  recording.add(slot.key);
  return true;
}

/** The session that claimed the recording ended without an outcome (it closed, or failed to boot): another may record. */
export function releaseHandshakeRecording(slot: ImageSlot): void {
  recording.delete(slot.key);
}

/** Keeps `image` in the process and, when the slot has a file, on disk. */
export function keepHandshakeImage(slot: ImageSlot, image: HandshakeImage): void {
  recording.delete(slot.key);
  images.set(handshakeKey(slot), image);
  if (slot.disk) writeImageFile(handshakeFileOf(slot.disk()), image);
}

/** No more handshake images of the slot's server in this process (and the one there is, dropped). */
export function refuseHandshakeImage(slot: ImageSlot): void {
  recording.delete(slot.key);
  noHandshakeImage.add(slot.key);
  images.delete(handshakeKey(slot));
}

/** Keeps `image` in the process and, when the slot has a file, on disk. */
export function keepImage(slot: ImageSlot, image: ServerImage): void {
  images.set(slot.key, image);
  if (slot.disk) writeImageFile(slot.disk(), image);
}

/** Bump when the file layout or what an image holds changes. */
const FORMAT = 1;
const MAGIC = "trailblaze-quickjs-image";

type Header = Omit<ServerImage, "bytes"> & { magic: string; format: number; key: string };

/** An image's file, and the sha256 of everything the image depends on (in its name, and in full in its header). */
interface DiskSlot {
  file: string;
  digest: string;
}

/** Where the image after the server's handshake goes: beside its image, with a name that one's clean-up leaves alone. */
const handshakeFileOf = (slot: DiskSlot): DiskSlot => ({ ...slot, file: slot.file.replace(/\.img$/, ".handshake.img") });

/** The image in the slot's file, if it is one, whole, of the slot's key; undefined otherwise (never throws). */
function readImageFile({ file, digest }: DiskSlot): ServerImage | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  const newline = data.indexOf(10);
  if (newline < 0) return undefined;
  let header: Header;
  try {
    header = JSON.parse(data.subarray(0, newline).toString("utf8")) as Header;
  } catch {
    return undefined;
  }
  if (header.magic !== MAGIC || header.format !== FORMAT || header.key !== digest) return undefined;
  const bytes = new Uint8Array(data.buffer, data.byteOffset + newline + 1, data.byteLength - newline - 1);
  let total = 0;
  for (let i = 1; i < header.runs.length; i += 2) total += header.runs[i]!;
  const last = header.runs.length === 0 ? 0 : header.runs.at(-2)! + header.runs.at(-1)!;
  if (total !== bytes.byteLength || last > header.linearBytes) return undefined;
  const { magic: _magic, format: _format, key: _key, ...image } = header;
  return { ...image, bytes };
}

/** What follows `<name>-<engine>-<environment>-` in an image file's name: the key hash, then the kind. */
const IMAGE_FILE_TAIL = /^([0-9a-f]{24})(?:\.handshake)?\.img$/;

/**
 * Writes `image` to `file` and removes the server's image files of other key hashes (an earlier
 * bundle's, of either kind) in its folder. Failures are ignored: images are only a speed-up.
 */
function writeImageFile({ file, digest }: DiskSlot, image: ServerImage | HandshakeImage): void {
  const { bytes, ...rest } = image;
  const header: Header = { magic: MAGIC, format: FORMAT, key: digest, ...rest };
  const head = Buffer.from(`${JSON.stringify(header)}\n`, "utf8");
  const data = new Uint8Array(head.byteLength + bytes.byteLength);
  data.set(head);
  data.set(bytes, head.byteLength);
  try {
    writeAtomically(file, data);
    const dir = join(file, "..");
    const mine = file.slice(dir.length + 1);
    const prefix = mine.slice(0, mine.lastIndexOf("-") + 1);
    const hash = IMAGE_FILE_TAIL.exec(mine.slice(prefix.length))?.[1];
    for (const other of readdirSync(dir)) {
      const otherHash = other.startsWith(prefix) ? IMAGE_FILE_TAIL.exec(other.slice(prefix.length))?.[1] : undefined;
      if (otherHash !== undefined && otherHash !== hash) rmSync(join(dir, other), { force: true });
    }
  } catch {
    // A read-only or full disk: the next process evaluates the bundle instead.
  }
}
