// Guest `atob`/`btoa` (QuickJS has neither): the SDK validates image/audio content with atob, and
// zod's base64 checks use both. Errors match the web platform's InvalidCharacterError.
import { DOMException } from "./dom-exception.ts";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const LOOKUP = new Map<string, number>([...ALPHABET].map((c, i) => [c, i]));

export function btoa(data: unknown): string {
  const text = String(data);
  let out = "";
  for (let i = 0; i < text.length; i += 3) {
    const a = text.charCodeAt(i);
    const b = i + 1 < text.length ? text.charCodeAt(i + 1) : -1;
    const c = i + 2 < text.length ? text.charCodeAt(i + 2) : -1;
    if (a > 255 || b > 255 || c > 255) {
      throw new DOMException("Invalid character: btoa() accepts only Latin-1 characters", "InvalidCharacterError");
    }
    const bits = (a << 16) | (Math.max(b, 0) << 8) | Math.max(c, 0);
    out += ALPHABET[(bits >> 18) & 63]! + ALPHABET[(bits >> 12) & 63]!;
    out += b < 0 ? "=" : ALPHABET[(bits >> 6) & 63]!;
    out += c < 0 ? "=" : ALPHABET[bits & 63]!;
  }
  return out;
}

export function atob(data: unknown): string {
  let text = String(data).replace(/[\t\n\f\r ]+/g, "");
  if (text.length % 4 === 0) text = text.replace(/==?$/, "");
  if (text.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(text)) {
    throw new DOMException("The string to be decoded is not correctly encoded.", "InvalidCharacterError");
  }
  let out = "";
  let bits = 0;
  let count = 0;
  for (const c of text) {
    bits = (bits << 6) | LOOKUP.get(c)!;
    count += 6;
    if (count >= 8) {
      count -= 8;
      out += String.fromCharCode((bits >> count) & 255);
    }
  }
  return out;
}
