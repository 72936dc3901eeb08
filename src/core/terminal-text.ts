// Text for a terminal: what came from outside (a trail file, a tool's message, a server's stderr,
// a page, a model's explanation) can carry escape sequences that set the window title (OSC),
// clear the screen, move the cursor or write the clipboard. Every terminal writer (the list
// reporter, `step` and `verify`, `check`, `run --list`, every command's stderr: errors, warnings,
// notes) prints such text through here: each control character shown escaped (`\x1b]0;…\x07`
// reads as those characters), colour codes (SGR) dropped, tabs and newlines kept. The CLI's own
// colours are painted with `paint`, marked while a text is composed, and made real by `toTerminal`
// as the outside text around them is escaped, so no outside text can make one.

/**
 * Stands for ESC in the CLI's own colour codes while a text is composed: a private-use character
 * (escaped when it comes from outside) and a token drawn for this process, which no outside text
 * can know.
 */
const OWN_ESC = `\uE000${[...crypto.getRandomValues(new Uint32Array(4))].map((n) => n.toString(36)).join("")}\uE000`;
/** Colour and style codes (SGR): only colours, so dropped rather than shown (a server's coloured log reads as its words). */
const SGR = /\u001B\[[0-9;:]*m/g;
/**
 * What a terminal acts on or reorders: C0 controls but tab and newline, DEL, C1 controls (0x9B is
 * a CSI to some terminals), the bidirectional overrides and isolates (text that reads other than
 * it is), and the own-colour mark.
 */
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uE000]/g;
/** How the common ones are shown; the rest as \xHH or \uHHHH. */
const SHOWN: Readonly<Record<string, string>> = { "\r": "\\r", "\u000B": "\\v", "\u000C": "\\f", "\u0008": "\\b", "\u0000": "\\0" };

function shown(char: string): string {
  const code = char.charCodeAt(0);
  return SHOWN[char] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`);
}

/** Outside text made safe to print: colour codes dropped, every other control character shown escaped; tabs and newlines kept. */
export function terminalText(text: string): string {
  return text.replace(SGR, "").replace(UNSAFE, shown);
}

/** Outside text for a line of its own (a model's explanation after ✓): as terminalText, and its newlines shown as `\n`, so it cannot print lines that look like the CLI's. */
export function terminalLine(text: string): string {
  return terminalText(text).replaceAll("\n", "\\n");
}

/** The CLI's own colour (SGR `open` … `close`), or the text as it is when colour is off; real only once `toTerminal` prints it. */
export function paint(enabled: boolean, open: number, close: number): (text: string) => string {
  return (text) => (enabled ? `${OWN_ESC}[${open}m${text}${OWN_ESC}[${close}m` : text);
}

/** A composed text (the CLI's words, painted with `paint`, and outside text) as it goes to the terminal. */
export function toTerminal(composed: string): string {
  return composed.split(OWN_ESC).map(terminalText).join("\u001B");
}
