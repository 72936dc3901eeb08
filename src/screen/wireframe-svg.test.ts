import { describe, expect, test } from "bun:test";
import { parseXml } from "../../test/support/xml.ts";
import { parseCapture } from "./load-capture.ts";
import { wireframeId, wireframeOf } from "./wireframe.ts";
import { wireframeSvg } from "./wireframe-svg.ts";

const capture = JSON.stringify({
  nodeId: 1,
  bounds: { left: 0, top: 0, right: 400, bottom: 800 },
  driverDetail: { class: "androidAccessibility", className: "android.widget.FrameLayout" },
  children: [
    {
      nodeId: 7,
      bounds: { left: 10, top: 10, right: 390, bottom: 60 },
      driverDetail: { class: "androidAccessibility", className: "android.widget.Button", text: `Pay <now> & "later"`, isClickable: true },
    },
    { nodeId: 9, driverDetail: { class: "androidAccessibility", className: "android.view.View", text: "no bounds" } },
  ],
});

describe("wireframe", () => {
  test("keeps every node with its parent, bounds, type, text and interactivity; masks text", () => {
    const wire = wireframeOf(parseCapture("s.json", capture), (t) => t.replaceAll("later", "***"));
    expect(wire).toEqual({
      file: "s.json",
      width: 400,
      height: 800,
      nodes: [
        { id: 1, bounds: [0, 0, 400, 800], type: "FrameLayout" },
        { id: 7, parent: 1, bounds: [10, 10, 390, 60], type: "Button", text: `Pay <now> & "***"`, interactive: true },
        { id: 9, parent: 1, type: "View", text: "no bounds" },
      ],
    });
    expect(wireframeId(wire)).toMatch(/^[0-9a-f]{12}$/);
    expect(wireframeId(wireframeOf(parseCapture("s.json", capture)))).not.toBe(wireframeId(wire));
  });

  test("SVG: well-formed, a rect per node (zero-size for a node without bounds), marks, escaped labels", () => {
    const svg = wireframeSvg(wireframeOf(parseCapture("s.json", capture)), { matched: [7], displayWidth: 100 });
    const doc = parseXml(svg);
    expect(doc.attrs).toMatchObject({ viewBox: "0 0 400 800", width: "100", height: "200" });
    const rects = doc.children.filter((c) => c.name === "rect");
    expect(rects.map((r) => r.attrs)).toEqual([
      { "data-node-id": "1", x: "0", y: "0", width: "400", height: "800" },
      { "data-node-id": "7", class: "i", "data-match": "", x: "10", y: "10", width: "380", height: "50" },
      { "data-node-id": "9", "data-no-bounds": "", x: "0", y: "0", width: "0", height: "0" },
    ]);
    expect(rects[1]!.children[0]!.text).toBe(`#7 Button "Pay <now> & \\"later\\""`);
    expect(doc.children.filter((c) => c.name === "text").map((t) => t.text)).toEqual([`Pay <now> & "later"`]);
    expect(doc.children.some((c) => c.name === "style")).toBe(true);
    expect(
      parseXml(wireframeSvg(wireframeOf(parseCapture("s.json", capture)), { standalone: false })).children.some((c) => c.name === "style"),
    ).toBe(false);
  });

  test("SVG with a screenshot: the image under the boxes at the device's size, no labels; marks for required and forbidden nodes", () => {
    const shot = "data:image/webp;base64,UklGRgQAAABXRUJQ";
    const svg = wireframeSvg(
      { ...wireframeOf(parseCapture("s.json", capture)), screenshot: shot },
      { matched: [7], required: [1], forbidden: [9] },
    );
    const doc = parseXml(svg);
    expect(doc.attrs.class).toBe("wireframe shot");
    const image = doc.children.find((c) => c.name === "image")!;
    expect(image.attrs).toEqual({ href: shot, x: "0", y: "0", width: "400", height: "800", preserveAspectRatio: "none" });
    expect(doc.children.indexOf(image)).toBeLessThan(doc.children.findIndex((c) => c.name === "rect"));
    expect(doc.children.filter((c) => c.name === "text")).toEqual([]);
    const rects = doc.children.filter((c) => c.name === "rect").map((r) => r.attrs);
    expect(rects.map((r) => Object.keys(r).filter((k) => k.startsWith("data-") && k !== "data-node-id"))).toEqual([
      ["data-required"],
      ["data-match"],
      ["data-forbidden", "data-no-bounds"],
    ]);
  });

  test("SVG: a screenshot that is not a WebP, PNG or JPEG data: URL is left out, and the labels stay", () => {
    for (const screenshot of [
      "javascript:alert(1)",
      "data:image/svg+xml;base64,PHN2Zz4=",
      `data:image/png;base64,AA"/><script>alert(1)</script>`,
    ]) {
      const svg = wireframeSvg({ ...wireframeOf(parseCapture("s.json", capture)), screenshot });
      expect(svg).not.toContain("<image");
      expect(svg).not.toContain("alert");
      expect(parseXml(svg).attrs.class).toBe("wireframe");
    }
  });
});
