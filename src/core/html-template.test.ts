import { describe, expect, test } from "bun:test";
import { cspHash, Html, html, inlineCode, joinHtml } from "./html-template.ts";

const PAYLOAD = `"'><img src=x onerror=alert(1)>&amp;`;

describe("html tag", () => {
  test("escapes a value for where it lands: element content, or a double- or single-quoted attribute", () => {
    expect(html`<p>${PAYLOAD}</p>`.toString()).toBe(`<p>"'&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp;</p>`);
    expect(html`<p title="${PAYLOAD}" data-x='${PAYLOAD}'></p>`.toString()).toBe(
      `<p title="&quot;&apos;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp;" data-x='&quot;&apos;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;amp;'></p>`,
    );
    // Text is cleaned as in every report: ANSI dropped, control characters replaced.
    expect(html`<b>${"a\u001b[31mb\u0001"}</b>`.toString()).toBe("<b>ab\uFFFD</b>");
  });

  test("numbers, lists and nothing: numbers as text, lists one after another, null, undefined, false and '' as nothing", () => {
    expect(html`<rect x="${10.5}" y="${-3}">${[1, html`<i>${"<"}</i>`, "&"]}${null}${undefined}${false}${""}</rect>`.toString()).toBe(
      `<rect x="10.5" y="-3">1<i>&lt;</i>&amp;</rect>`,
    );
    expect(joinHtml([html`<a></a>`, "<b>"], ", ").toString()).toBe("<a></a>, &lt;b&gt;");
  });

  test("a fragment made by the tag goes in as it is; an object that looks like one does not", () => {
    const bold = html`<b>${"x"}</b>`;
    expect(html`<p>${bold}</p>`.toString()).toBe("<p><b>x</b></p>");
    expect(Html.is(bold)).toBe(true);
    const lookalike = { toString: () => "<script>alert(1)</script>" };
    expect(Html.is(lookalike)).toBe(false);
    expect(Html.is(Object.create(Html.prototype))).toBe(false);
    expect(() => html`<p>${lookalike as unknown as string}</p>`).toThrow("html: cannot put object in a page");
  });

  test("among a tag's attributes only a fragment goes, never text; a fragment never goes in an attribute value", () => {
    expect(html`<rect a="1"${html` data-match=""`}${false} b="2">`.toString()).toBe(`<rect a="1" data-match="" b="2">`);
    expect(() => html`<rect ${"onload=alert(1)"}>`).toThrow("html: among a tag's attributes only a fragment made by html`…` can go");
    expect(() => html`<p title="${html`<b></b>`}">`).toThrow("html: a fragment of markup cannot go in an attribute value");
  });

  test("a value where escaping cannot protect it is a mistake in the template, refused on first use", () => {
    expect(() => html`<p title=${"x"}>`).toThrow(
      'html: value 1 of the template "<p title=${…}>" is inside a tag but not in a quoted attribute value',
    );
    expect(() => html`<${"img src=x onerror=alert(1)"}>`).toThrow("is a tag's name");
    expect(() => html`</${"p"}>`).toThrow("is inside a tag but not in a quoted attribute value");
    expect(() => html`<script>var a = ${"1"};</script>`).toThrow("is inside <script>: build it with inlineCode");
    expect(() => html`<STYLE>p{color:${"red"}}</STYLE>`).toThrow("is inside <style>: build it with inlineCode");
    expect(() => html`<!-- ${"x"} -->`).toThrow("is inside a comment");
    expect(() => html` title="${"x"}"`).toThrow("is an attribute value outside a tag");
    // After a <script> or a comment closes, values are text again.
    expect(html`<script>if (a < b) x = "</p>";</script><!-- <p title=" --><p>${"<"}</p>`.toString()).toBe(
      `<script>if (a < b) x = "</p>";</script><!-- <p title=" --><p>&lt;</p>`,
    );
  });

  test("inlineCode: the page's own script or style as it is, refused when it could end early; cspHash its CSP source", () => {
    expect(inlineCode("style", "a>b{color:red}").toString()).toBe("<style>a>b{color:red}</style>");
    expect(() => inlineCode("script", `x = "</SCRIPT><img>"`)).toThrow("html: inline script holds </script or <!--");
    expect(() => inlineCode("script", "<!--")).toThrow("html: inline script holds");
    // sha256("alert(1)"), as Chrome's console prints it for a blocked inline script.
    expect(cspHash("alert(1)")).toBe("'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  });
});
