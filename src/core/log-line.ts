// One line of a log file, masked before it is cut: a cut never splits a secret and leaves its
// start readable. A line longer than a log keeps is cut to its head, with the rest counted.

/** Longest line a log file keeps, in characters; the rest of a longer line is counted in a marker. */
export const MAX_LOG_LINE_CHARS = 1024 * 1024;

/**
 * When only the head of a line could be kept to mask (the line was longer than any buffer of it),
 * this many characters at the end of the masked head are dropped too: a secret of up to this
 * length that straddles the end of the head is dropped whole rather than left as a visible prefix.
 */
export const MASK_WINDOW_CHARS = 64 * 1024;

/** A masked line as a log keeps it. */
interface CutLine {
  /** The masked line, at most `maxChars` characters. */
  text: string;
  /** Bytes (UTF-8) of the line that were not kept; 0 when `text` is the whole masked line. */
  cutBytes: number;
}

/**
 * `head` masked whole, then cut to `maxChars`. `whole` says whether `head` is the whole line;
 * when it is only the start of a longer one, the last `window` characters of the masked head are
 * dropped as well (a secret may straddle its end, see {@link MASK_WINDOW_CHARS}). `cutBytes`
 * counts what the masked head lost; the caller adds what never reached the head.
 */
export function maskHead(
  head: string,
  whole: boolean,
  mask: (text: string) => string,
  maxChars = MAX_LOG_LINE_CHARS,
  window = MASK_WINDOW_CHARS,
): CutLine {
  const masked = mask(head);
  const keep = whole ? maxChars : Math.max(0, Math.min(maxChars, masked.length - window));
  if (masked.length <= keep) return { text: masked, cutBytes: 0 };
  return { text: masked.slice(0, keep), cutBytes: Buffer.byteLength(masked.slice(keep)) };
}

/**
 * A line already in memory, masked and cut to `maxChars`: only its first `maxChars + window`
 * characters are masked (a line of many MiB costs no more than one of that length).
 */
export function maskLine(text: string, mask: (text: string) => string, maxChars = MAX_LOG_LINE_CHARS, window = MASK_WINDOW_CHARS): CutLine {
  if (text.length <= maxChars + window) return maskHead(text, true, mask, maxChars, window);
  const head = text.slice(0, maxChars + window);
  const cut = maskHead(head, false, mask, maxChars, window);
  return { text: cut.text, cutBytes: cut.cutBytes + Buffer.byteLength(text) - Buffer.byteLength(head) };
}

/** A field's JSON kept in a cut line: at most this many characters once a line is too long. */
const SMALL_FIELD_CHARS = 4096;

/**
 * `record` as one masked JSON line of at most `maxChars` characters (for a `.jsonl` log). The whole
 * line is masked first; when it is too long, each field whose JSON is long becomes a string holding
 * the head of that masked JSON and a marker (`… [N more bytes]`), so the line stays one valid JSON
 * object with its short fields (time, tool, level, …) intact.
 */
export function maskedJsonLine(record: Record<string, unknown>, mask: (text: string) => string, maxChars = MAX_LOG_LINE_CHARS): string {
  const line = mask(JSON.stringify(record));
  if (line.length <= maxChars) return line;
  const fields = Object.entries(record).map(([key, value]) => ({ key, value, json: mask(JSON.stringify(value) ?? "null") }));
  const big = fields.filter((field) => field.json.length > SMALL_FIELD_CHARS);
  // Short fields are a few KiB at most: half the line is theirs, the other half is shared by the long ones.
  const budget = Math.floor(maxChars / 2 / Math.max(1, big.length));
  const cut: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.json.length <= SMALL_FIELD_CHARS) {
      cut[field.key] = field.value;
      continue;
    }
    let head = field.json.slice(0, budget);
    // Escaping (quotes, control characters) makes a string's JSON longer: each character taken off shortens it by one or more.
    for (let excess = JSON.stringify(head).length - budget; excess > 0; excess = JSON.stringify(head).length - budget)
      head = head.slice(0, -excess);
    cut[field.key] = `${head} … [${Buffer.byteLength(field.json) - Buffer.byteLength(head)} more bytes]`;
  }
  return mask(JSON.stringify(cut));
}
