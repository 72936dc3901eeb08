import { describe, expect, test } from "bun:test";
import { paint, terminalLine, terminalText, toTerminal } from "./terminal-text.ts";

describe("terminalText", () => {
  test("shows every control character escaped, keeps tabs, newlines and the rest exactly", () => {
    expect(terminalText("title \u001b]0;pwned\u0007 then \u001b]8;;https://x\u001b\\link\u001b]8;;\u001b\\")).toBe(
      "title \\x1b]0;pwned\\x07 then \\x1b]8;;https://x\\x1b\\link\\x1b]8;;\\x1b\\",
    );
    expect(terminalText("\u001b[2J\u001b[H\rover\u0008\u000b\u000c\u0000\u007f\u0085\u009b2J")).toBe(
      "\\x1b[2J\\x1b[H\\rover\\b\\v\\f\\0\\x7f\\x85\\x9b2J",
    );
    expect(terminalText("a\u202eb\u2066c\u200fd\u061ce")).toBe("a\\u202eb\\u2066c\\u200fd\\u061ce");
    expect(terminalText("tab\there\nnext ✓ 日本 😀 é")).toBe("tab\there\nnext ✓ 日本 😀 é");
  });

  test("drops colour codes (a server's coloured log reads as its words), a concealing one too", () => {
    expect(terminalText("\u001b[31mred\u001b[0m \u001b[1;38;5;208mbold\u001b[m \u001b[8mhidden")).toBe("red bold hidden");
  });

  test("terminalLine also shows newlines, so the text stays on its line", () => {
    expect(terminalLine("done\n✓ passed\r\tok")).toBe("done\\n✓ passed\\r\tok");
  });
});

describe("paint and toTerminal: the CLI's own colours, and no one else's", () => {
  const red = paint(true, 31, 39);

  test("colours painted while composing are real once printed; outside text around them is escaped", () => {
    expect(toTerminal(`${red("✗")} step \u001b]0;x\u0007 \u001b[2J`)).toBe("\u001b[31m✗\u001b[39m step \\x1b]0;x\\x07 \\x1b[2J");
    expect(toTerminal(paint(false, 31, 39)("✗"))).toBe("✗");
  });

  test("outside text cannot forge a colour: the marks' character and any look-alike are shown, not turned into ESC", () => {
    const forged = ["\ue000[8m", "\\ue000[8m", "\\x1b[8m", "\ue000abc\ue000[8m"];
    for (const text of forged) expect(toTerminal(`${red("!")}${text}`)).not.toMatch(/\u001b\[8m/);
    expect(toTerminal("\ue000[8m")).toBe("\\ue000[8m");
  });
});
