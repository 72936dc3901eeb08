// Guest `TextEncoder` / `TextDecoder` (QuickJS has neither): UTF-8 only, byte for byte what the
// WHATWG Encoding Standard (and so Bun and browsers) gives, lone surrogates and invalid bytes
// included (each maximal invalid subpart decodes to one U+FFFD), with `fatal`, `ignoreBOM`,
// `stream` and `encodeInto`. Libraries such as @faker-js/faker build on them unguarded; other
// encodings (windows-1252, UTF-16) throw a RangeError that says so.

/** The WHATWG labels of UTF-8 (after trimming and lower-casing). */
const UTF8_LABELS = new Set(["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"]);
const REPLACEMENT = 0xfffd;
/** Code units turned into a string at a time (String.fromCharCode's argument count stays small). */
const CHUNK = 8192;

function codedError(kind: typeof TypeError | typeof RangeError, message: string, code: string): Error {
  return Object.assign(new kind(message), { code });
}

export class TextEncoder {
  get encoding(): string {
    return "utf-8";
  }

  encode(input: unknown = ""): Uint8Array {
    const text = String(input);
    const bytes = new Uint8Array(text.length * 3);
    const { written } = encodeUtf8(text, bytes);
    return bytes.slice(0, written);
  }

  encodeInto(source: unknown, destination: Uint8Array): { read: number; written: number } {
    if (!(destination instanceof Uint8Array)) throw new TypeError("Expected Uint8Array");
    return encodeUtf8(String(source), destination);
  }

  get [Symbol.toStringTag](): string {
    return "TextEncoder";
  }
}

/** Writes whole code points of `text` while they fit; a lone surrogate is U+FFFD. */
function encodeUtf8(text: string, out: Uint8Array): { read: number; written: number } {
  let read = 0;
  let written = 0;
  while (read < text.length) {
    let point = text.charCodeAt(read);
    let units = 1;
    if (point >= 0xd800 && point <= 0xdfff) {
      const next = read + 1 < text.length ? text.charCodeAt(read + 1) : 0;
      if (point <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        point = 0x10000 + ((point - 0xd800) << 10) + (next - 0xdc00);
        units = 2;
      } else point = REPLACEMENT;
    }
    const size = point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
    if (written + size > out.length) break;
    if (size === 1) out[written] = point;
    else {
      const lead = size === 2 ? 0xc0 : size === 3 ? 0xe0 : 0xf0;
      out[written] = lead | (point >> (6 * (size - 1)));
      for (let i = 1; i < size; i++) out[written + i] = 0x80 | ((point >> (6 * (size - 1 - i))) & 0x3f);
    }
    written += size;
    read += units;
  }
  return { read, written };
}

/** The Encoding Standard's UTF-8 decoder state, kept between `stream: true` calls. */
interface DecoderState {
  needed: number;
  seen: number;
  point: number;
  lower: number;
  upper: number;
  bomSeen: boolean;
}

const freshState = (): DecoderState => ({ needed: 0, seen: 0, point: 0, lower: 0x80, upper: 0xbf, bomSeen: false });

export class TextDecoder {
  readonly #fatal: boolean;
  readonly #ignoreBOM: boolean;
  #state = freshState();

  constructor(label: unknown = "utf-8", options: { fatal?: boolean; ignoreBOM?: boolean } = {}) {
    const name = String(label)
      .replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, "")
      .toLowerCase();
    if (!UTF8_LABELS.has(name)) {
      throw codedError(
        RangeError,
        `Unsupported encoding label "${String(label)}": the on-device TextDecoder decodes UTF-8 only`,
        "ERR_ENCODING_NOT_SUPPORTED",
      );
    }
    this.#fatal = Boolean(options?.fatal);
    this.#ignoreBOM = Boolean(options?.ignoreBOM);
  }

  get encoding(): string {
    return "utf-8";
  }

  get fatal(): boolean {
    return this.#fatal;
  }

  get ignoreBOM(): boolean {
    return this.#ignoreBOM;
  }

  decode(input?: unknown, options: { stream?: boolean } = {}): string {
    const bytes = bytesOf(input);
    const stream = Boolean(options?.stream);
    const state = this.#state;
    const units: number[] = [];
    let out = "";
    const emit = (point: number) => {
      if (point > 0xffff) units.push(0xd800 + ((point - 0x10000) >> 10), 0xdc00 + ((point - 0x10000) & 0x3ff));
      else units.push(point);
      if (units.length >= CHUNK) out += String.fromCharCode(...units.splice(0));
    };
    const invalid = () => {
      if (this.#fatal) {
        this.#state = freshState();
        throw codedError(TypeError, "The encoded data was not valid for encoding utf-8", "ERR_ENCODING_INVALID_ENCODED_DATA");
      }
      emit(REPLACEMENT);
    };
    const reset = () => {
      state.needed = state.seen = state.point = 0;
      state.lower = 0x80;
      state.upper = 0xbf;
    };
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i]!;
      if (state.needed === 0) {
        if (byte <= 0x7f) emit(byte);
        else if (byte >= 0xc2 && byte <= 0xdf) [state.needed, state.point] = [1, byte & 0x1f];
        else if (byte >= 0xe0 && byte <= 0xef) {
          if (byte === 0xe0) state.lower = 0xa0;
          if (byte === 0xed) state.upper = 0x9f;
          [state.needed, state.point] = [2, byte & 0x0f];
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          if (byte === 0xf0) state.lower = 0x90;
          if (byte === 0xf4) state.upper = 0x8f;
          [state.needed, state.point] = [3, byte & 0x07];
        } else invalid();
        continue;
      }
      if (byte < state.lower || byte > state.upper) {
        // The byte ends the broken sequence and is read again on its own.
        reset();
        i--;
        invalid();
        continue;
      }
      state.lower = 0x80;
      state.upper = 0xbf;
      state.point = (state.point << 6) | (byte & 0x3f);
      if (++state.seen === state.needed) {
        const point = state.point;
        reset();
        emit(point);
      }
    }
    if (!stream && state.needed !== 0) {
      reset();
      invalid();
    }
    out += String.fromCharCode(...units);
    // A leading BOM of the stream goes, unless ignoreBOM; after a call without `stream` a new stream starts.
    if (!state.bomSeen && out.length > 0) {
      state.bomSeen = true;
      if (!this.#ignoreBOM && out.charCodeAt(0) === 0xfeff) out = out.slice(1);
    }
    if (!stream) this.#state = freshState();
    return out;
  }

  get [Symbol.toStringTag](): string {
    return "TextDecoder";
  }
}

function bytesOf(input: unknown): Uint8Array {
  if (input === undefined) return new Uint8Array(0);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw codedError(TypeError, "TextDecoder.decode expects an ArrayBuffer or TypedArray", "ERR_INVALID_ARG_TYPE");
}
