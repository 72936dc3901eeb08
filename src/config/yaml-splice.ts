// Editing YAML text in place, so every byte the edit does not touch (comments, quoting, blank
// lines, key order) stays as written: where a block node starts and ends, and a splice.

/** The column a node starts at (0-based). */
export function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf("\n", offset - 1) + 1);
}

/** Where a line can be added after a block collection's last entry: the end of that entry's last line. */
export function afterLastEntry(text: string, end: number): number {
  if (text[end - 1] === "\n") return end - 1;
  const eol = text.indexOf("\n", end);
  return eol === -1 ? text.length : eol;
}

/** `text` with `insert` added at offset `at`. */
export function splice(text: string, at: number, insert: string): string {
  return text.slice(0, at) + insert + text.slice(at);
}

/** Every line of a block of YAML text indented by `indent` spaces (empty lines left empty). */
export function indentBlock(block: string, indent: number): string {
  const pad = " ".repeat(indent);
  return block
    .replace(/\n$/, "")
    .split("\n")
    .map((line) => (line === "" ? line : pad + line))
    .join("\n");
}
