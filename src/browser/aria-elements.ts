// The page's element list as upstream's playwright-native driver numbers it: each meaningful
// node of the page's ARIA snapshot gets an id (e1, e2…, in document order) standing for its ARIA
// descriptor (`button "View"`) and which occurrence of that descriptor it is. Recorded trails
// hold these ids as `ref:`, so a replay resolves them the same way. Pure: text in, list out.

/** One numbered element: `ref` e.g. "e5", its descriptor and 0-based occurrence among equal descriptors. */
interface AriaElement {
  ref: string;
  descriptor: string;
  role: string;
  name?: string;
  nth: number;
}

export interface AriaElementList {
  elements: AriaElement[];
  /** The list as text, indented like the page (landmarks as headers): what web_snapshot answers. */
  text: string;
}

/** Playwright's ARIA roles; any other word in a snapshot (`text`, `/url`) counts as generic. */
const ARIA_ROLES = new Set(
  (
    "alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox complementary " +
    "contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell group heading img " +
    "insertion link list listbox listitem log main marquee math meter menu menubar menuitem menuitemcheckbox menuitemradio " +
    "navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar " +
    "search searchbox separator slider spinbutton status strong subscript superscript switch tab table tablist tabpanel term " +
    "textbox time timer toolbar tooltip tree treegrid treeitem"
  ).split(" "),
);
/** Whether `word` is one of Playwright's ARIA roles. */
export const isAriaRole = (word: string): boolean => ARIA_ROLES.has(word);

/** Sections shown as headers when they hold a numbered element. */
const LANDMARKS = new Set(["navigation", "main", "banner", "contentinfo", "complementary", "form", "dialog", "region", "list", "table"]);
/** Always numbered. */
const INTERACTIVE = new Set([
  "button",
  "link",
  "textbox",
  "combobox",
  "searchbox",
  "checkbox",
  "radio",
  "switch",
  "tab",
  "menuitem",
  "option",
  "slider",
  "spinbutton",
]);
/** Numbered when named (any other named role is too, unless structural). */
const STRUCTURAL = new Set(["generic", "none", "presentation"]);

interface Line {
  indent: number;
  /** The role word as written (`text`, `heading`…). */
  role: string;
  /** The role it counts as: a Playwright role, else generic. */
  kind: string;
  name?: string;
}

const QUOTED = /^(\w+)\s+"(.+?)".*$/;
const COLON = /^(\w+)(?:\s*\[[^\]]*])*:\s*(.+)$/;
const CONTAINER = /^(\w+)(?:\s*\[[^\]]*])*:?\s*$/;

/** A colon value as Playwright writes it: quoted (YAML's double quotes, JSON's escapes) when it holds a colon or quote. */
function yamlScalar(text: string): string {
  if (!/^".*"$/.test(text)) return text;
  try {
    return JSON.parse(text) as string;
  } catch {
    return text;
  }
}

/** Reads one snapshot line: `- button "Submit"`, `- paragraph: Some text`, `- navigation:`. */
export function parseAriaLine(line: string): Line {
  const indent = line.search(/[^ -]/);
  const body = line.replace(/^[ -]+/, "").trim();
  const as = (role: string, name?: string): Line => ({
    indent,
    role,
    kind: ARIA_ROLES.has(role) ? role : "generic",
    ...(name !== undefined ? { name } : {}),
  });
  const quoted = QUOTED.exec(body);
  if (quoted) return as(quoted[1]!, quoted[2]!);
  const colon = COLON.exec(body);
  if (colon) return as(colon[1]!, yamlScalar(colon[2]!));
  const container = CONTAINER.exec(body);
  if (container) return as(container[1]!);
  return { indent, role: "text", kind: "generic", ...(body ? { name: body } : {}) };
}

const meaningful = (l: Line) => INTERACTIVE.has(l.kind) || (l.name !== undefined && !STRUCTURAL.has(l.kind));
const describe = (l: Line) => (l.name === undefined ? l.role : l.role === "text" ? `text: ${l.name}` : `${l.role} "${l.name}"`);

/** Numbers the meaningful elements of an ARIA snapshot (Playwright's `ariaSnapshot()` text). */
export function ariaElements(snapshot: string): AriaElementList {
  const lines = snapshot
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map(parseAriaLine);
  if (lines.length === 0) return { elements: [], text: "(empty page)" };
  const base = Math.min(...lines.map((l) => l.indent));
  const pad = (l: Line) => "  ".repeat(Math.max(0, Math.floor((l.indent - base) / 2)));
  const elements: AriaElement[] = [];
  const out: string[] = [];
  const seen = new Map<string, number>();
  const landmarks: { line: Line; shown: boolean }[] = [];
  for (const line of lines) {
    while (landmarks.length > 0 && landmarks.at(-1)!.line.indent >= line.indent) landmarks.pop();
    if (LANDMARKS.has(line.kind)) landmarks.push({ line, shown: false });
    if (!meaningful(line)) continue;
    for (const landmark of landmarks) {
      if (landmark.shown) continue;
      landmark.shown = true;
      out.push(`${pad(landmark.line)}${describe(landmark.line)}:`);
    }
    const descriptor = describe(line);
    const nth = seen.get(descriptor) ?? 0;
    seen.set(descriptor, nth + 1);
    const ref = `e${elements.length + 1}`;
    elements.push({ ref, descriptor, role: line.role, ...(line.name !== undefined ? { name: line.name } : {}), nth });
    out.push(`${pad(line)}[${ref}] ${descriptor}`);
  }
  return { elements, text: out.length > 0 ? out.join("\n") : "(no interactive elements found)" };
}
