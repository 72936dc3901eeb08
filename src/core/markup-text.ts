// Text from tools, servers and captures, made safe to print or embed in XML, SVG and HTML: ANSI
// escape sequences dropped, other control characters (tab and newlines kept) and characters XML
// cannot hold replaced by U+FFFD, then escaped for element content or a quoted attribute.

const ANSI = /\u001B\[[0-?]*[ -/]*[@-~]/g;
const CONTROL =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanText(text: string): string {
  return text.replace(ANSI, "").replace(CONTROL, "\uFFFD");
}

/** Escapes text for element content (XML, SVG or HTML). */
export function xmlText(text: string): string {
  return cleanText(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** Escapes text for a double- or single-quoted attribute (newlines and tabs kept as character references). */
export function xmlAttr(text: string): string {
  return xmlText(text)
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;")
    .replaceAll("\n", "&#10;")
    .replaceAll("\r", "&#13;")
    .replaceAll("\t", "&#9;");
}
