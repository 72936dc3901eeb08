// Text from tools and servers, made safe to print or embed: ANSI escape
// sequences dropped, other control characters (tab and newlines kept) and
// characters XML cannot hold replaced by U+FFFD.

const ANSI = /\u001B\[[0-?]*[ -/]*[@-~]/g;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanText(text: string): string {
  return text.replace(ANSI, "").replace(CONTROL, "\uFFFD");
}
