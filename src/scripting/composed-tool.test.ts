// How a composed tool's {{params.x}} tokens expand, and how its calls run, with a mock client.

import { describe, expect, test } from "bun:test";
import { composedTool, expandComposedTool, type ComposedDefinition } from "./composed-tool.ts";
import { createMockClient } from "./testing.ts";

const definition: ComposedDefinition = {
  id: "notes_saveNote",
  parameters: [
    { name: "text", required: true, hasDefault: false },
    { name: "erase", required: false, hasDefault: false },
    { name: "prefix", required: false, hasDefault: true, default: "Note: " },
    { name: "tags", required: false, hasDefault: false },
  ],
  tools: [
    { eraseText: { charactersToErase: "{{params.erase}}" } },
    { inputText: { text: "{{ params.prefix }}{{params.text}} ({{params.erase}})" } },
    { tag: { tags: ["fixed", "{{params.tags}}"], all: "{{params.tags}}" } },
    { hideKeyboard: null },
  ],
};

describe("expandComposedTool", () => {
  test("a whole-string token keeps the argument's type; inside a string it is text; an omitted optional drops its key or item", () => {
    expect(expandComposedTool(definition, { text: "milk", erase: 3, tags: ["a", "b"] })).toEqual([
      ["eraseText", { charactersToErase: 3 }],
      ["inputText", { text: "Note: milk (3)" }],
      ["tag", { tags: ["fixed", ["a", "b"]], all: ["a", "b"] }],
      ["hideKeyboard", {}],
    ]);
    expect(expandComposedTool(definition, { text: "milk", erase: null, prefix: "" })).toEqual([
      ["eraseText", {}],
      ["inputText", { text: "milk ()" }],
      ["tag", { tags: ["fixed"] }],
      ["hideKeyboard", {}],
    ]);
  });

  test("a missing required parameter, a token naming no parameter, and a non-params token are errors", () => {
    expect(() => expandComposedTool(definition, {})).toThrow("notes_saveNote: missing required parameter text");
    const stray = { ...definition, tools: [{ inputText: { text: "{{params.nope}}" } }] };
    expect(() => expandComposedTool(stray, { text: "x" })).toThrow(
      "notes_saveNote: {{params.nope}} names no declared parameter; declare nope under parameters:",
    );
    const memory = { ...definition, tools: [{ inputText: { text: "hi {{memory.user}}" } }] };
    expect(() => expandComposedTool(memory, { text: "x" })).toThrow("{{memory.user}} is not a parameter");
  });
});

describe("composedTool", () => {
  test("calls each tool in order and says which; a failing call fails it and stops the rest", async () => {
    const client = createMockClient();
    expect(await composedTool(definition)({ text: "milk" }, undefined, client)).toBe("ran eraseText, inputText, tag, hideKeyboard");
    expect(client.calls.map((call) => call.tool)).toEqual(["eraseText", "inputText", "tag", "hideKeyboard"]);

    client.reset();
    client.stub("inputText", { textContent: "", errorMessage: "no focused field" });
    await expect(composedTool(definition)({ text: "milk" }, undefined, client)).rejects.toThrow(
      "notes_saveNote: call 2 of 4 (inputText) failed: ctx.tools.inputText: tool failed: no focused field",
    );
    expect(client.calls.map((call) => call.tool)).toEqual(["eraseText", "inputText"]);
  });
});
