// Markup (HTML, and SVG inside it) built so that every interpolated value is escaped by default:
// html`<p title="${a}">${b}</p>` escapes `a` for a quoted attribute value and `b` for element
// content. Only an `Html` fragment, which this tag (or `inlineCode`) made, goes in as it is, in
// element content or among a tag's attributes (html`<rect${marked ? html` data-match=""` : ""}>`),
// where text is refused; a value anywhere else (a tag name, inside <script>, <style> or a comment)
// is a mistake in the template, refused when it is first used. `inlineCode` builds the page's own
// <script> and <style> elements and `cspHash` the Content-Security-Policy source that allows them.

import { xmlAttr, xmlText } from "./markup-text.ts";

let wrap: (markup: string) => Html;

/** A fragment of markup made by `html` (or `inlineCode`): trusted, inserted as it is. */
export class Html {
  readonly #markup: string;
  private constructor(markup: string) {
    this.#markup = markup;
  }
  static {
    wrap = (markup) => new Html(markup);
  }
  /** Whether `value` is a fragment this module made (a brand check: a look-alike object is not). */
  static is(value: unknown): value is Html {
    return typeof value === "object" && value !== null && #markup in value;
  }
  toString(): string {
    return this.#markup;
  }
}

/** What a template takes: text and numbers (escaped), fragments (as they are), lists of them; nothing for null, undefined and false. */
type HtmlValue = string | number | Html | null | undefined | false | readonly HtmlValue[];

/** Where a value sits in the template: element content, a value between quotes, or among a tag's attributes. */
type Slot = "text" | "attr" | "tag";

const slotsOf = new WeakMap<TemplateStringsArray, Slot[]>();

/** The place of each value of a template, read once per call site from its static parts. */
function slots(strings: TemplateStringsArray): Slot[] {
  const known = slotsOf.get(strings);
  if (known) return known;
  type State = "text" | "tag" | "dq" | "sq" | "comment" | "raw";
  let state: State = "text";
  let rawEnd = ""; // "</script" or "</style" while in such an element's content
  let opening = ""; // the name of the tag being read, when it opens a <script> or <style>
  const found: Slot[] = [];
  strings.forEach((part, index) => {
    for (let i = 0; i < part.length; i++) {
      const ch = part[i]!;
      if (state === "text") {
        if (part.startsWith("<!--", i)) {
          state = "comment";
          i += 3;
        } else if (ch === "<" && /[A-Za-z/!?]/.test(part[i + 1] ?? "")) {
          state = "tag";
          const name = /^[A-Za-z][\w-]*/.exec(part.slice(i + 1))?.[0]?.toLowerCase() ?? "";
          opening = name === "script" || name === "style" ? name : "";
        }
      } else if (state === "tag") {
        if (ch === '"') state = "dq";
        else if (ch === "'") state = "sq";
        else if (ch === ">") {
          state = opening ? "raw" : "text";
          rawEnd = opening ? `</${opening}` : "";
          opening = "";
        }
      } else if (state === "dq") {
        if (ch === '"') state = "tag";
      } else if (state === "sq") {
        if (ch === "'") state = "tag";
      } else if (state === "comment") {
        if (part.startsWith("-->", i)) {
          state = "text";
          i += 2;
        }
      } else if (part.slice(i, i + rawEnd.length).toLowerCase() === rawEnd) {
        state = "tag";
        i += rawEnd.length - 1;
      }
    }
    if (index === strings.length - 1) return;
    const refuse = (where: string) => {
      throw new Error(`html: value ${index + 1} of the template ${JSON.stringify(strings.join("${…}").slice(0, 100))} is ${where}`);
    };
    if (state === "text") {
      // An attribute written outside its tag (a fragment html` title="${v}"`) would get text escaping.
      if (/<\/?$/.test(part)) refuse("a tag's name");
      if (/=\s*["']$/.test(part)) refuse("an attribute value outside a tag: write the tag and its attributes in one template");
      found.push("text");
    } else if (state === "dq" || state === "sq") found.push("attr");
    else if (state === "tag" && (/[\s"']$/.test(part) || (part === "" && found.at(-1) === "tag"))) found.push("tag");
    else if (state === "tag") refuse("inside a tag but not in a quoted attribute value nor after a space among its attributes");
    else refuse(state === "raw" ? `inside <${rawEnd.slice(2)}>: build it with inlineCode` : "inside a comment");
  });
  slotsOf.set(strings, found);
  return found;
}

function render(value: HtmlValue, slot: Slot): string {
  if (value === null || value === undefined || value === false || value === "") return "";
  if (slot === "tag" && !Html.is(value) && !Array.isArray(value))
    throw new Error("html: among a tag's attributes only a fragment made by html`…` can go (an attribute with its quoted value)");
  if (typeof value === "string") return slot === "text" ? xmlText(value) : xmlAttr(value);
  if (typeof value === "number") return xmlAttr(String(value));
  if (Array.isArray(value)) return value.map((item: HtmlValue) => render(item, slot)).join("");
  if (Html.is(value)) {
    if (slot === "attr") throw new Error("html: a fragment of markup cannot go in an attribute value: give the attribute text");
    return value.toString();
  }
  throw new TypeError(`html: cannot put ${typeof value} in a page: give text, a number or a fragment made by html\`…\``);
}

/** The tag: each value escaped for its place (element content or a quoted attribute value); `Html` fragments as they are. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  const places = slots(strings);
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value, places[i]!) + strings[i + 1]!;
  });
  return wrap(out);
}

/** Fragments (or text, escaped) one after another, with `separator` between them. */
export function joinHtml(values: readonly HtmlValue[], separator: HtmlValue = ""): Html {
  const sep = render(separator, "text");
  return wrap(values.map((value) => render(value, "text")).join(sep));
}

/**
 * The page's own <script> or <style> element, holding `code` as it is: code is not text, so it is
 * never data from a run; refused when it could end its element early or open a comment there.
 */
export function inlineCode(element: "script" | "style", code: string): Html {
  if (new RegExp(`</${element}|<!--`, "i").test(code))
    throw new Error(`html: inline ${element} holds </${element} or <!--, which would end it early`);
  return wrap(`<${element}>${code}</${element}>`);
}

/** The Content-Security-Policy source (`'sha256-…'`) that allows an inline element holding exactly `code`. */
export function cspHash(code: string): string {
  // Bun's hasher, not node:crypto: every `run` loads the reporters, and node:crypto costs each command its load.
  return `'sha256-${new Bun.CryptoHasher("sha256").update(code).digest("base64")}'`;
}
