// A QuickJS server's images as one session uses them (image-store.ts keeps them, sandbox.ts takes
// and restores them, handshake.ts records and answers a handshake): which image the session
// starts from (past the handshake when one fits, else after the bundle's top level), the console
// lines an image replays, watching this session's handshake to image the server past it,
// answering a recorded handshake, and rewinding when a client opens with other messages.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { HandshakeRecorder, HandshakeReplay } from "./handshake.ts";
import {
  keepHandshakeImage,
  refuseHandshakeImage,
  releaseHandshakeRecording,
  type HandshakeImage,
  type ImageSlot,
  type ServerImage,
} from "./image-store.ts";
import type { LogLevel } from "./sandbox-bridge.ts";
import type { Sandbox } from "./sandbox.ts";

/**
 * What a session may reuse: `image`, the server's image, restored if it fits; `handshake`, its
 * image after a handshake, restored instead when it fits; `imaging`: a server whose image may be
 * taken once it boots (unless restored) and, with `recordHandshake`, once it answered its handshake.
 */
export interface ImageReuse {
  image: ServerImage | undefined;
  handshake: HandshakeImage | undefined;
  imaging: boolean;
  recordHandshake: boolean;
}

export class ServerImaging {
  /** Whether the session started from an image (its bundle is not evaluated again). */
  readonly restored: boolean;
  /** Whether its client's handshake was answered from the record. */
  handshakeReplayed = false;
  /** Console lines written while the bundle evaluates, kept for the image (when imaging). */
  private bootLogs: [LogLevel, string][] | undefined;
  /** Watching this session's handshake, for an image taken right after it. */
  private recorder: HandshakeRecorder | undefined;
  /** Answering this session's handshake from the image it was restored from. */
  private replay: HandshakeReplay | undefined;
  /** The image of the server before any handshake: what a session whose client opens differently is rewound to. */
  private bootImage: ServerImage | undefined;
  /** The server's handshake images: where they are kept, or refused when a client opens differently. */
  private handshakeSlot: ImageSlot | undefined;
  /** The console lines of the server's image (restored or taken): a handshake image keeps them. */
  private imageLogs: [LogLevel, string][] = [];

  /**
   * Restores `sandbox` (set up, nothing run) from the image that fits, replaying its console lines
   * through `log`, or, when none does, prepares it to be imaged once it boots (`reuse.imaging`).
   */
  constructor(
    private readonly sandbox: Sandbox,
    reuse: ImageReuse,
    log: (level: LogLevel, text: string) => void,
  ) {
    // Measured before a restore too when this session may be imaged after its handshake.
    if (reuse.recordHandshake) sandbox.prepareImage();
    const image =
      reuse.handshake && reuse.image && sandbox.restore(reuse.handshake)
        ? reuse.handshake
        : reuse.image && sandbox.restore(reuse.image)
          ? reuse.image
          : undefined;
    this.restored = image !== undefined;
    if (image) {
      this.imageLogs = image.logs;
      for (const [level, text] of image.logs) log(level, text);
      if (image === reuse.handshake) {
        this.replay = new HandshakeReplay(reuse.handshake.handshake);
        this.bootImage = reuse.image;
      }
    } else if (reuse.imaging) {
      sandbox.prepareImage();
    }
  }

  /** A console line: kept while the bundle evaluates; a guest that writes during its handshake is not imaged after it. */
  logged(level: LogLevel, text: string): void {
    this.recorder?.fail();
    this.bootLogs?.push([level, text]);
  }

  /** The bundle starts evaluating: its console lines are kept from now. */
  bootStarts(): void {
    this.bootLogs = [];
  }

  /** The bundle's top level ran: the lines it wrote, which the server's image replays. */
  bootEnded(): [LogLevel, string][] {
    const logs = this.bootLogs ?? [];
    this.bootLogs = undefined;
    this.imageLogs = logs;
    return logs;
  }

  /** Once booted: `slot` is where this session's handshake image goes (`record`), or where to refuse them if it rewinds. */
  handshakeImages(slot: ImageSlot, record: boolean): void {
    this.handshakeSlot = slot;
    if (record && !this.replay) this.recorder = new HandshakeRecorder();
  }

  /**
   * A message on its way to the guest, while a recorded handshake is answered: `drop` it, give the
   * client `reply`, or (undefined) deliver it; a client that opens differently rewinds the server
   * to before its handshake first, and refuses this server's handshake images from then on.
   */
  answer(message: JSONRPCMessage): "drop" | { reply: JSONRPCMessage } | undefined {
    if (!this.replay) return undefined;
    const step = this.replay.next(message);
    if (step === "drop") return "drop";
    if (typeof step === "object") {
      this.handshakeReplayed = this.replay.done;
      return { reply: step.reply };
    }
    this.replay = undefined;
    if (step === "rewind") {
      this.sandbox.rewind(this.bootImage!);
      if (this.handshakeSlot) refuseHandshakeImage(this.handshakeSlot);
    }
    return undefined;
  }

  /** A message delivered to the guest, in the record being taken. */
  toGuest(message: JSONRPCMessage): void {
    this.recorder?.toGuest(message);
  }

  /** A message from the guest, in the record being taken. */
  fromGuest(message: JSONRPCMessage): void {
    this.recorder?.fromGuest(message);
  }

  /** A delivery of a message failed: no handshake image after it. */
  deliveryFailed(): void {
    this.recorder?.fail();
  }

  /** A delivery of a message ended: the handshake image is taken once the record is whole, or given up. */
  delivered(): void {
    const recorder = this.recorder;
    if (!recorder) return;
    if (!recorder.record && !recorder.failed) return;
    this.recorder = undefined;
    // A recorder exists only once `handshakeImages` gave the slot.
    const slot = this.handshakeSlot!;
    const image = recorder.record && this.sandbox.takeImage(2);
    if (image) keepHandshakeImage(slot, { ...image, logs: this.imageLogs, handshake: recorder.record! });
    else refuseHandshakeImage(slot);
  }

  /** The session closes: a recording under way is given up, for another session to take. */
  close(): void {
    if (this.recorder) releaseHandshakeRecording(this.handshakeSlot!);
    this.recorder = undefined;
  }
}
