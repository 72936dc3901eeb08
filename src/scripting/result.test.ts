import { describe, expect, test } from "bun:test";
import { mapCallToolResult } from "../core/result-mapping.ts";
import { contextRequired, error, fatalError, missingRequiredArgs, success, variant, withMemory } from "./result.ts";

describe("result helpers build plain MCP results", () => {
  test("success: text only, then with structured content, memory and extra content", () => {
    expect(success("done")).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(
      success("saved", {
        structuredContent: { id: 7 },
        memoryDelta: { id: 7 },
        memoryDeletions: ["draft"],
        content: [{ type: "text", text: "second block" }],
      }),
    ).toEqual({
      content: [
        { type: "text", text: "saved" },
        { type: "text", text: "second block" },
      ],
      structuredContent: { id: 7 },
      _meta: { trailblaze: { memoryDelta: { id: 7 }, memoryDeletions: ["draft"] } },
    });
  });

  test("empty memory changes add no _meta", () => {
    expect(success("x", { memoryDelta: {}, memoryDeletions: [] })).toEqual({ content: [{ type: "text", text: "x" }] });
  });

  test("error variants", () => {
    expect(error("nope")).toEqual({ content: [{ type: "text", text: "nope" }], isError: true });
    expect(fatalError("gone")).toEqual({
      content: [{ type: "text", text: "gone" }],
      isError: true,
      _meta: { trailblaze: { variant: "FatalError" } },
    });
    expect(missingRequiredArgs("need email", { structuredContent: { missing: ["email"] } })).toEqual({
      content: [{ type: "text", text: "need email" }],
      isError: true,
      structuredContent: { missing: ["email"] },
      _meta: { trailblaze: { variant: "MissingRequiredArgs" } },
    });
    expect(variant("MaestroValidationError", "no match")).toEqual({
      content: [{ type: "text", text: "no match" }],
      isError: true,
      _meta: { trailblaze: { variant: "MaestroValidationError" } },
    });
    expect(contextRequired("myapp_x")).toEqual({
      content: [{ type: "text", text: "myapp_x needs the Trailblaze context (device and memory); call it from a Trailblaze session" }],
      isError: true,
    });
  });

  test('variant refuses "Success" and the empty name at run time too', () => {
    // @ts-expect-error "Success" is not an error variant
    expect(() => variant("Success", "x")).toThrow(
      'variant("Success"): name an error variant such as "FatalError"; use success() for a success',
    );
    // @ts-expect-error the empty name is not a variant
    expect(() => variant("", "x")).toThrow('variant(""): name an error variant');
  });

  test("withMemory merges into existing _meta, keeps other keys, and refuses error results", () => {
    const base = {
      ...success("ok", { memoryDelta: { a: 1 }, memoryDeletions: ["z"] }),
      _meta: { other: true, trailblaze: { memoryDelta: { a: 1 }, memoryDeletions: ["z"] } },
    };
    expect(withMemory(base, { memoryDelta: { b: 2 }, memoryDeletions: ["z", "y"] })).toEqual({
      content: [{ type: "text", text: "ok" }],
      _meta: { other: true, trailblaze: { memoryDelta: { a: 1, b: 2 }, memoryDeletions: ["z", "y"] } },
    });
    const plain = { content: [{ type: "text" as const, text: "hi" }] };
    expect(withMemory(plain, {})).toBe(plain);
    expect(() => withMemory(error("bad"), { memoryDelta: { a: 1 } })).toThrow(
      "withMemory: memory changes apply only to successful results (Trailblaze ignores them when isError is true)",
    );
  });

  test("the dispatcher maps every helper onto the variant it names", () => {
    expect(mapCallToolResult(success("ok", { memoryDelta: { k: "v" }, memoryDeletions: ["old"] }))).toEqual({
      variant: "Success",
      message: "ok",
      content: [{ type: "text", text: "ok" }],
      memoryDelta: { k: "v" },
      memoryDeletions: ["old"],
    });
    expect(mapCallToolResult(error("e")).variant).toBe("ExceptionThrown");
    expect(mapCallToolResult(fatalError("f")).variant).toBe("FatalError");
    expect(mapCallToolResult(missingRequiredArgs("m")).variant).toBe("MissingRequiredArgs");
    expect(mapCallToolResult(variant("PaymentDeclinedError", "d"))).toMatchObject({ variant: "PaymentDeclinedError", message: "d" });
  });
});
