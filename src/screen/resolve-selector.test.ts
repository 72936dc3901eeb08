// Our case table for the selector matcher: every driver matcher field, every relation, index and
// ordering, and the legacy Maestro-style selector, on hand-written captures in fixtures/screens.
import { describe, expect, test } from "bun:test";
import { SelectorError } from "../errors.ts";
import { screenFixture } from "../../test/support/screens.ts";
import { resolveSelector } from "./resolve-selector.ts";
import { parseSelector } from "./selector.ts";

const A = "android-login.json";
const O = "other-drivers.json";
const L = "legacy-hierarchy.json";

const aa = (fields: object, rest: object = {}) => ({ androidAccessibility: fields, ...rest });

// [what, capture, selector, expected node ids in result order]
const CASES: [string, string, unknown, number[]][] = [
  // androidAccessibility: every field
  ["aa classNameRegex", A, aa({ classNameRegex: ".*EditText" }), [4, 5]],
  ["aa resourceIdRegex", A, aa({ resourceIdRegex: "com\\.example\\.myapp:id/login" }), [7]],
  ["aa uniqueId is exact", A, aa({ uniqueId: "login-button" }), [7]],
  ["aa uniqueId is not a pattern", A, aa({ uniqueId: "login-.*" }), []],
  ["aa composeTestTagRegex", A, aa({ composeTestTagRegex: "ter.." }), [16]],
  ["aa textRegex is the whole text", A, aa({ textRegex: "Log in" }), [7]],
  ["aa textRegex falls back to hintText", A, aa({ textRegex: "Email" }), [4]],
  ["aa textRegex falls back to contentDescription", A, aa({ textRegex: "Remove account" }), [12, 15]],
  ["aa textRegex is case-sensitive", A, aa({ textRegex: "log in" }), []],
  ["aa contentDescriptionRegex", A, aa({ contentDescriptionRegex: "Remove.*" }), [12, 15]],
  ["aa hintTextRegex", A, aa({ hintTextRegex: "Pass.*" }), [5]],
  ["aa labeledByTextRegex", A, aa({ labeledByTextRegex: "Email address" }), [4]],
  ["aa stateDescriptionRegex", A, aa({ stateDescriptionRegex: "Checked" }), [6]],
  ["aa paneTitleRegex", A, aa({ paneTitleRegex: "Recent accounts" }), [9]],
  ["aa roleDescriptionRegex", A, aa({ roleDescriptionRegex: "Link" }), [16]],
  ["aa isEnabled false", A, aa({ isEnabled: false }), [8]],
  ["aa isEnabled true counts an absent field as enabled", A, aa({ isEnabled: true, classNameRegex: ".*Button" }), [7]],
  ["aa isClickable", A, aa({ isClickable: true, textRegex: "Log in.*" }), [7, 8]],
  ["aa isCheckable", A, aa({ isCheckable: true }), [6]],
  ["aa isChecked", A, aa({ isChecked: true }), [6]],
  ["aa isSelected", A, aa({ isSelected: true }), [13]],
  ["aa isFocused", A, aa({ isFocused: true }), [5]],
  ["aa isEditable", A, aa({ isEditable: true }), [4, 5]],
  ["aa isScrollable", A, aa({ isScrollable: true }), [9]],
  ["aa isPassword", A, aa({ isPassword: true }), [5]],
  ["aa isHeading", A, aa({ isHeading: true }), [2]],
  ["aa isMultiLine", A, aa({ isMultiLine: true }), [16]],
  ["aa inputType", A, aa({ inputType: 33 }), [4]],
  ["aa collectionItemRowIndex", A, aa({ collectionItemRowIndex: 1 }), [13]],
  ["aa collectionItemColumnIndex", A, aa({ collectionItemColumnIndex: 0 }), [10, 13]],
  ["a driver matcher only matches its own driver's nodes", O, aa({ textRegex: "Continue" }), []],
  // androidMaestro: the Maestro dialect (case-insensitive)
  ["am textRegex, case-insensitive", O, { androidMaestro: { textRegex: "continue" } }, [101]],
  ["am textRegex falls back to hintText", O, { androidMaestro: { textRegex: "search" } }, [102]],
  ["am resourceIdRegex", O, { androidMaestro: { resourceIdRegex: ".*:id/CONTINUE" } }, [101]],
  ["am accessibilityTextRegex", O, { androidMaestro: { accessibilityTextRegex: "search FIELD" } }, [102]],
  ["am classNameRegex", O, { androidMaestro: { classNameRegex: ".*switch" } }, [103]],
  ["am hintTextRegex", O, { androidMaestro: { hintTextRegex: "Search" } }, [102]],
  ["am clickable", O, { androidMaestro: { clickable: true } }, [101]],
  ["am enabled", O, { androidMaestro: { enabled: false } }, [102]],
  ["am focused", O, { androidMaestro: { focused: true } }, [101]],
  ["am checked", O, { androidMaestro: { checked: true } }, [103]],
  ["am selected", O, { androidMaestro: { selected: true } }, [102]],
  // iosMaestro
  ["im textRegex, case-insensitive", O, { iosMaestro: { textRegex: "PIZZA" } }, [110]],
  ["im resourceIdRegex", O, { iosMaestro: { resourceIdRegex: "order-pizza" } }, [110]],
  ["im accessibilityTextRegex", O, { iosMaestro: { accessibilityTextRegex: "order a pizza" } }, [110]],
  ["im classNameRegex", O, { iosMaestro: { classNameRegex: "uibutton" } }, [110]],
  ["im hintTextRegex", O, { iosMaestro: { hintTextRegex: "ORDER" } }, [110]],
  ["im focused", O, { iosMaestro: { focused: true } }, [110]],
  ["im selected", O, { iosMaestro: { selected: false } }, []],
  // iosAxe (native dialect)
  ["axe roleRegex", O, { iosAxe: { roleRegex: "AX.*Field" } }, [121]],
  ["axe subroleRegex", O, { iosAxe: { subroleRegex: "AXToggle" } }, [120]],
  ["axe labelRegex", O, { iosAxe: { labelRegex: "Favourites" } }, [120]],
  ["axe labelRegex is case-sensitive", O, { iosAxe: { labelRegex: "favourites" } }, []],
  ["axe valueRegex", O, { iosAxe: { valueRegex: "secret" } }, [121]],
  ["axe uniqueId", O, { iosAxe: { uniqueId: "fav" } }, [120]],
  ["axe typeRegex", O, { iosAxe: { typeRegex: "Butt.n" } }, [120]],
  ["axe titleRegex", O, { iosAxe: { titleRegex: "Favs" } }, [120]],
  ["axe customAction is list membership", O, { iosAxe: { customAction: "Today" } }, [120]],
  ["axe customAction is not a pattern", O, { iosAxe: { customAction: "Tod.*" } }, []],
  ["axe enabled defaults to true", O, { iosAxe: { enabled: true } }, [121]],
  // web
  ["web ariaRole is exact", O, { web: { ariaRole: "link" } }, [131, 132]],
  ["web ariaNameRegex", O, { web: { ariaNameRegex: "Wel.*" } }, [130]],
  ["web ariaDescriptorRegex", O, { web: { ariaDescriptorRegex: 'link "Home"' } }, [131, 132]],
  ["web headingLevel", O, { web: { headingLevel: 1 } }, [130]],
  ["web cssSelector", O, { web: { cssSelector: "#home" } }, [131]],
  ["web dataTestId", O, { web: { dataTestId: "footer-home" } }, [132]],
  ["web nthIndex", O, { web: { nthIndex: 1 } }, [132]],
  ["web nthIndex defaults to 0", O, { web: { nthIndex: 0 } }, [130, 131]],
  // compose
  ["compose testTag", O, { compose: { testTag: "notify" } }, [140]],
  ["compose role", O, { compose: { role: "TextField" } }, [141, 142]],
  ["compose textRegex reads editableText first", O, { compose: { textRegex: "Ada" } }, [141]],
  ["compose textRegex does not see text hidden by editableText", O, { compose: { textRegex: "Name" } }, []],
  ["compose editableTextRegex", O, { compose: { editableTextRegex: "A.a" } }, [141]],
  ["compose contentDescriptionRegex", O, { compose: { contentDescriptionRegex: "Your name" } }, [141]],
  ["compose toggleableState", O, { compose: { toggleableState: "On" } }, [140]],
  ["compose isEnabled", O, { compose: { isEnabled: false } }, [141]],
  ["compose isFocused", O, { compose: { isFocused: true } }, [140]],
  ["compose isSelected", O, { compose: { isSelected: true } }, [141]],
  ["compose isPassword", O, { compose: { isPassword: true } }, [142]],
  // relations
  ["childOf scopes to the parent's subtree", A, aa({ textRegex: "Remove account" }, { childOf: aa({ collectionItemRowIndex: 1 }) }), [15]],
  [
    "childOf reaches every descendant, not only children",
    A,
    aa({ textRegex: ".*@example\\.com" }, { childOf: aa({ paneTitleRegex: "Recent accounts" }) }),
    [11, 14],
  ],
  ["childOf excludes the parent itself", A, aa({ resourceIdRegex: ".*:id/form" }, { childOf: aa({ resourceIdRegex: ".*:id/form" }) }), []],
  ["childOf with no parent match matches nothing", A, aa({ textRegex: "Log in" }, { childOf: aa({ textRegex: "Nowhere" }) }), []],
  ["containsChild", A, aa({ isClickable: true }, { containsChild: aa({ textRegex: "bob@example\\.com" }) }), [13]],
  [
    "containsChild looks at direct children only",
    A,
    aa({ isScrollable: true }, { containsChild: aa({ textRegex: "bob@example\\.com" }) }),
    [],
  ],
  ["containsDescendants needs every one", A, { containsDescendants: [aa({ textRegex: "ann@.*" }), aa({ textRegex: "bob@.*" })] }, [1, 9]],
  [
    "containsDescendants fails when one is missing",
    A,
    aa({ isScrollable: true }, { containsDescendants: [aa({ textRegex: "ann@.*" }), aa({ textRegex: "cy@.*" })] }),
    [],
  ],
  ["below", A, aa({ classNameRegex: ".*Button" }, { below: aa({ textRegex: "Remember me" }) }), [7, 8]],
  ["above", A, aa({ classNameRegex: ".*EditText" }, { above: aa({ hintTextRegex: "Password" }) }), [4]],
  ["leftOf", A, aa({ classNameRegex: ".*Button" }, { leftOf: aa({ textRegex: "Log in with SSO" }) }), [7]],
  [
    "rightOf compares x only",
    A,
    aa({ contentDescriptionRegex: "Remove account" }, { rightOf: aa({ textRegex: "bob@example\\.com" }) }),
    [12, 15],
  ],
  [
    "a spatial anchor is the anchor's first match",
    A,
    aa({ textRegex: ".*@example\\.com" }, { below: aa({ contentDescriptionRegex: "Remove account" }) }),
    [14],
  ],
  ["a spatial anchor that matches nothing matches nothing", A, aa({ isClickable: true }, { below: aa({ textRegex: "Nowhere" }) }), []],
  ["index picks among matches", A, aa({ textRegex: "Remove account" }, { index: 1 }), [15]],
  ["index past the end matches nothing", A, aa({ textRegex: "Remove account" }, { index: 2 }), []],
  ["matches sort top-to-bottom, not document order", A, aa({ classNameRegex: ".*TextView" }), [2, 11, 14, 16]],
  ["matches on one row sort left-to-right", O, { web: { ariaRole: "link" }, index: 1 }, [132]],
  ["an empty selector matches every node", O, {}, [100, 101, 102, 103, 110, 120, 121, 130, 131, 132, 140, 141, 142]],
  // legacy Maestro-style selectors (recorded `selector:`), on any driver's nodes
  ["legacy textRegex is the Maestro dialect", A, { textRegex: "log in" }, [7]],
  ["legacy idRegex matches the resource id", A, { idRegex: ".*:ID/EMAIL" }, [4]],
  ["legacy index is recorded as a string", A, { textRegex: "Remove account", index: "1" }, [15]],
  ["legacy enabled", A, { textRegex: "Log in.*", enabled: false }, [8]],
  ["legacy selected", A, { selected: true }, [13]],
  ["legacy checked", A, { checked: true }, [6]],
  ["legacy focused", A, { focused: true }, [5]],
  ["legacy childOf", A, { textRegex: ".*", childOf: { selected: true } }, [14, 15]],
  ["legacy size with tolerance", A, { size: { width: 78, height: 60, tolerance: 2 } }, [12, 15]],
  ["legacy below", L, { textRegex: "Lunch.*", below: { textRegex: "Lunch on Friday\\?" } }, [5]],
  ["legacy textRegex reads accessibilityText", L, { textRegex: "compose" }, [6]],
  ["legacy containsChild", L, { idRegex: ".*:id/list", containsChild: { textRegex: "lunch moved" } }, [3]],
  ["legacy compose checked reads toggleableState", O, { checked: true }, [103, 140]],
  ["a legacy selector with only relations keeps the legacy shape", L, { containsChild: { textRegex: "lunch moved" } }, [3]],
];

describe("resolveSelector", () => {
  for (const [what, capture, raw, ids] of CASES) {
    test(what, async () => {
      const result = resolveSelector(await screenFixture(capture), parseSelector(raw, "case"));
      const kind = ids.length === 0 ? "noMatch" : ids.length === 1 ? "singleMatch" : "multipleMatches";
      expect({ kind: result.kind, ids: result.nodes.map((n) => n.id) }).toEqual({ kind, ids });
    });
  }
});

describe("parseSelector", () => {
  const ERRORS: [unknown, string][] = [
    [
      { androidAccessibility: { textRegx: "Hi" } },
      'case: $.androidAccessibility.textRegx: unknown androidAccessibility field; did you mean "textRegex"?',
    ],
    [{ androidAccessibility: { isClickable: "yes" } }, 'case: $.androidAccessibility.isClickable: expected true or false, got "yes"'],
    [{ web: { headingLevel: 1.5 } }, "case: $.web.headingLevel: expected an integer, got 1.5"],
    [
      { androidAccessibility: {}, web: {} },
      "case: $: sets several driver matchers (androidAccessibility, web); a selector matches one driver's nodes",
    ],
    [{ androidAccessibility: { textRegex: "a" }, chldOf: {} }, 'case: $.chldOf: unknown selector field; did you mean "childOf"?'],
    [{ textRegex: "a", index: "first" }, 'case: $.index: expected a non-negative integer, got "first"'],
    [
      { textRegex: "a", traits: ["TEXT"] },
      "case: $: traits selectors are not supported by the simulated screen; use textRegex, idRegex or a nodeSelector",
    ],
    [{ childOf: { androidAccessibility: { textRegex: 3 } } }, "case: $.childOf.androidAccessibility.textRegex: expected a string, got 3"],
    [{ containsDescendants: { textRegex: "a" } }, "case: $.containsDescendants: expected a list of selectors, got an object"],
    ["Log in", 'case: $: expected a selector object, got "Log in"'],
  ];
  for (const [raw, message] of ERRORS) {
    test(message, () => {
      expect(() => parseSelector(raw, "case")).toThrow(new SelectorError("case", message.slice("case: ".length)));
    });
  }

  test("a selector error has its own code and exit code 2", () => {
    const error = (() => {
      try {
        parseSelector(3, "--selector #1");
      } catch (e) {
        return e as SelectorError;
      }
    })();
    expect({ code: error?.code, exitCode: error?.exitCode, message: error?.message }).toEqual({
      code: "SELECTOR_INVALID",
      exitCode: 2,
      message: "--selector #1: $: expected a selector object, got 3",
    });
  });
});
