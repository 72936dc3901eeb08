// A strict, small XML 1.0 reader for tests: parses a document into a tree and
// throws on anything not well-formed (unescaped < or &, unknown entities,
// mismatched or unclosed tags, duplicate attributes, forbidden characters,
// text outside the root). Enough to check that JUnit reports load anywhere.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated character data directly inside this element, entities decoded. */
  text: string;
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/;
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  if (FORBIDDEN.test(raw)) throw new Error(`forbidden character near offset ${at}`);
  if (raw.includes("<")) throw new Error(`unescaped < near offset ${at}`);
  return raw.replace(/&([^;\s&<]*);?/g, (match, body: string) => {
    if (!match.endsWith(";")) throw new Error(`unterminated entity "${match}" near offset ${at}`);
    if (body in ENTITIES) return ENTITIES[body]!;
    const num = /^#(\d+)$/.exec(body) ?? /^#x([0-9a-fA-F]+)$/.exec(body);
    if (!num) throw new Error(`unknown entity "&${body};" near offset ${at}`);
    const code = parseInt(num[1]!, body.startsWith("#x") ? 16 : 10);
    return String.fromCodePoint(code);
  });
}

export function parseXml(source: string): XmlElement {
  let i = 0;
  const fail = (message: string): never => {
    throw new Error(`${message} at offset ${i}: ${JSON.stringify(source.slice(i, i + 40))}`);
  };
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i]!)) i++;
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (source.startsWith("<!--", i)) {
        const end = source.indexOf("-->", i + 4);
        if (end < 0) fail("unclosed comment");
        i = end + 3;
      } else if (source.startsWith("<?", i) && !source.startsWith("<?xml ", i)) {
        const end = source.indexOf("?>", i);
        if (end < 0) fail("unclosed processing instruction");
        i = end + 2;
      } else return;
    }
  };
  const name = (): string => {
    const match = NAME.exec(source.slice(i));
    if (!match) return fail("expected a name");
    i += match[0].length;
    return match[0];
  };

  if (source.startsWith("<?xml")) {
    const end = source.indexOf("?>");
    if (end < 0) fail("unclosed XML declaration");
    if (
      !/^<\?xml\s+version="1\.[0-9]"(\s+encoding="[A-Za-z][A-Za-z0-9._-]*")?(\s+standalone="(yes|no)")?\s*\?>$/.test(
        source.slice(0, end + 2),
      )
    ) {
      fail("malformed XML declaration");
    }
    i = end + 2;
  }
  skipMisc();

  const element = (): XmlElement => {
    if (source[i] !== "<") fail("expected <");
    i++;
    const el: XmlElement = { name: name(), attrs: {}, children: [], text: "" };
    for (;;) {
      const before = i;
      skipSpace();
      if (source.startsWith("/>", i)) {
        i += 2;
        return el;
      }
      if (source[i] === ">") {
        i++;
        break;
      }
      if (i === before) fail("expected whitespace before an attribute");
      const attr = name();
      skipSpace();
      if (source[i] !== "=") fail(`attribute ${attr} has no =`);
      i++;
      skipSpace();
      const quote = source[i];
      if (quote !== '"' && quote !== "'") return fail(`attribute ${attr} is not quoted`);
      const end = source.indexOf(quote, i + 1);
      if (end < 0) fail(`attribute ${attr} is not closed`);
      if (attr in el.attrs) fail(`duplicate attribute ${attr}`);
      el.attrs[attr] = decode(source.slice(i + 1, end), i);
      i = end + 1;
    }
    for (;;) {
      const next = source.indexOf("<", i);
      if (next < 0) fail(`element <${el.name}> is not closed`);
      el.text += decode(source.slice(i, next), i);
      i = next;
      if (source.startsWith("</", i)) {
        i += 2;
        const closing = name();
        if (closing !== el.name) fail(`</${closing}> closes <${el.name}>`);
        skipSpace();
        if (source[i] !== ">") fail("expected >");
        i++;
        return el;
      }
      if (source.startsWith("<!--", i)) {
        const end = source.indexOf("-->", i + 4);
        if (end < 0) fail("unclosed comment");
        i = end + 3;
        continue;
      }
      if (source.startsWith("<![CDATA[", i)) {
        const end = source.indexOf("]]>", i);
        if (end < 0) fail("unclosed CDATA");
        el.text += source.slice(i + 9, end);
        i = end + 3;
        continue;
      }
      el.children.push(element());
    }
  };

  const root = element();
  skipMisc();
  if (i !== source.length) fail("content after the root element");
  return root;
}

/** Direct children named `name`. */
export function childrenNamed(el: XmlElement, name: string): XmlElement[] {
  return el.children.filter((c) => c.name === name);
}
