import { describe, expect, test } from "bun:test";
import { ariaElements, parseAriaLine } from "./aria-elements.ts";

const PAGE = `- document:
  - heading "Shop" [level=1]
  - navigation "Main":
    - link "Home":
      - /url: "#home"
    - link "Cart":
      - /url: "#cart"
  - paragraph: Two items
  - list:
    - listitem:
      - text: Cable
      - button "View"
    - listitem:
      - text: Cable
      - button "View"
  - generic [active]:
    - textbox "Email"`;

describe("ariaElements", () => {
  test("numbers meaningful nodes in document order, landmarks as headers, duplicates by occurrence", () => {
    const list = ariaElements(PAGE);
    expect(list.elements.map((e) => [e.ref, e.descriptor, e.nth])).toEqual([
      ["e1", 'heading "Shop"', 0],
      ["e2", 'navigation "Main"', 0],
      ["e3", 'link "Home"', 0],
      ["e4", 'link "Cart"', 0],
      ["e5", 'paragraph "Two items"', 0],
      ["e6", 'button "View"', 0],
      ["e7", 'button "View"', 1],
      ["e8", 'textbox "Email"', 0],
    ]);
    expect(list.text).toBe(
      [
        '  [e1] heading "Shop"',
        '  navigation "Main":',
        '  [e2] navigation "Main"',
        '    [e3] link "Home"',
        '    [e4] link "Cart"',
        '  [e5] paragraph "Two items"',
        "  list:",
        '      [e6] button "View"',
        '      [e7] button "View"',
        '    [e8] textbox "Email"',
      ].join("\n"),
    );
  });

  test("lines: quoted names, colon text, containers with annotations, and text outside Playwright's roles", () => {
    expect(parseAriaLine('    - heading "Hi [x]" [level=2] [ref=e4]')).toEqual({
      indent: 6,
      role: "heading",
      kind: "heading",
      name: "Hi [x]",
    });
    expect(parseAriaLine("  - paragraph [ref=e8]: [DRAFT] text")).toEqual({
      indent: 4,
      role: "paragraph",
      kind: "paragraph",
      name: "[DRAFT] text",
    });
    expect(parseAriaLine("- generic [active] [ref=e2]:")).toEqual({ indent: 2, role: "generic", kind: "generic" });
    expect(parseAriaLine("  - text: Cable")).toEqual({ indent: 4, role: "text", kind: "generic", name: "Cable" });
    // A value with a colon is quoted in the snapshot; the name is what the page shows.
    expect(parseAriaLine('  - paragraph: "Items in basket: 0"')).toEqual({
      indent: 4,
      role: "paragraph",
      kind: "paragraph",
      name: "Items in basket: 0",
    });
    expect(parseAriaLine('  - paragraph: "Say \\"hi\\": now"')).toMatchObject({ name: 'Say "hi": now' });
  });

  test("an empty snapshot, and one with nothing to number", () => {
    expect(ariaElements("")).toEqual({ elements: [], text: "(empty page)" });
    expect(ariaElements("- document:\n  - generic").text).toBe("(no interactive elements found)");
  });
});
