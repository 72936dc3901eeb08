import { describe, expect, test } from "bun:test";
import { basisPath } from "./map-graph-svg.ts";
import { commonPrefix, layoutMapGraph, midpoint, wrapLabel, type GraphNode } from "./map-graph.ts";

const overlap = (a: GraphNode, b: GraphNode) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe("layoutMapGraph", () => {
  const input = {
    waypoints: ["shop/a/home", "shop/a/list", "shop/a/item", "shop/a/cart", "shop/a/alone"].map((id) => ({ id, ratio: 2 })),
    shortcuts: [
      { id: "shop_a_homeToList", from: "shop/a/home", to: "shop/a/list" },
      { id: "shop_a_listToItem", from: "shop/a/list", to: "shop/a/item" },
      { id: "shop_a_itemToCart", from: "shop/a/item", to: "shop/a/cart" },
      { id: "shop_a_cartBack", from: "shop/a/cart", to: "shop/a/home" },
      { id: "shop_a_cartBackAgain", from: "shop/a/cart", to: "shop/a/home" },
      { id: "shop_a_toNowhere", from: "shop/a/item", to: "shop/a/gone" },
    ],
    trailheads: [{ id: "shop_a_launch", to: "shop/a/home" }],
  };
  const graph = layoutMapGraph(input);

  test("a node per waypoint, per id not in the map and one for the trailheads' start; an edge per shortcut and trailhead, in order", () => {
    expect(graph.nodes.map((n) => [n.kind, n.id])).toEqual([
      ["waypoint", "shop/a/home"],
      ["waypoint", "shop/a/list"],
      ["waypoint", "shop/a/item"],
      ["waypoint", "shop/a/cart"],
      ["waypoint", "shop/a/alone"],
      ["missing", "shop/a/gone"],
      ["start", ""],
    ]);
    expect(graph.edges.map((e) => [e.kind, e.id, e.label, e.from, e.to])).toEqual([
      ["shortcut", "shop_a_homeToList", "homeToList", "shop/a/home", "shop/a/list"],
      ["shortcut", "shop_a_listToItem", "listToItem", "shop/a/list", "shop/a/item"],
      ["shortcut", "shop_a_itemToCart", "itemToCart", "shop/a/item", "shop/a/cart"],
      ["shortcut", "shop_a_cartBack", "cartBack", "shop/a/cart", "shop/a/home"],
      ["shortcut", "shop_a_cartBackAgain", "cartBackAgain", "shop/a/cart", "shop/a/home"],
      ["shortcut", "shop_a_toNowhere", "toNowhere", "shop/a/item", "shop/a/gone"],
      ["trailhead", "shop_a_launch", "launch", "", "shop/a/home"],
    ]);
    expect(graph.waypointPrefix).toBe("shop/a/");
    expect(graph.nodes.find((n) => n.id === "shop/a/gone")!.lines).toEqual(["gone (not in the map)"]);
  });

  test("nodes do not overlap, lie inside the drawing, and every edge has a route from its node to its node", () => {
    for (const [i, a] of graph.nodes.entries()) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.y).toBeGreaterThanOrEqual(0);
      expect(a.x + a.width).toBeLessThanOrEqual(graph.width + 0.5);
      expect(a.y + a.height).toBeLessThanOrEqual(graph.height + 0.5);
      for (const b of graph.nodes.slice(i + 1)) expect(overlap(a, b)).toBe(false);
    }
    for (const edge of graph.edges) {
      expect(edge.points.length).toBeGreaterThanOrEqual(2);
      expect(edge.points.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y))).toBe(true);
    }
    // The home → list route starts on home's border, ends on list's, and goes down (top to bottom).
    const home = graph.nodes[0]!;
    const list = graph.nodes[1]!;
    const route = graph.edges[0]!.points;
    const onBorder = (p: { x: number; y: number }, n: GraphNode) =>
      p.x >= n.x - 1 &&
      p.x <= n.x + n.width + 1 &&
      p.y >= n.y - 1 &&
      p.y <= n.y + n.height + 1 &&
      Math.min(Math.abs(p.x - n.x), Math.abs(p.x - n.x - n.width), Math.abs(p.y - n.y), Math.abs(p.y - n.y - n.height)) < 1;
    expect(onBorder(route[0]!, home)).toBe(true);
    expect(onBorder(route.at(-1)!, list)).toBe(true);
    expect(list.y).toBeGreaterThan(home.y + home.height);
  });

  test("a waypoint no shortcut touches goes in the grid after the connected parts, under its caption", () => {
    const alone = graph.nodes.find((n) => n.id === "shop/a/alone")!;
    expect(graph.unconnected?.count).toBe(1);
    const caption = graph.unconnected!;
    expect(alone.y).toBeGreaterThan(caption.y);
    expect(alone.x).toBeGreaterThanOrEqual(caption.x);
  });

  test("an empty map is an empty drawing", () => {
    expect(layoutMapGraph({ waypoints: [], shortcuts: [], trailheads: [] })).toEqual({
      width: 0,
      height: 0,
      nodes: [],
      edges: [],
      waypointPrefix: "",
    });
  });
});

describe("labels", () => {
  test("commonPrefix: up to the last separator every id shares, kept only when every id goes on past it", () => {
    expect(commonPrefix(["contacts/ios/list", "contacts/ios/lists"])).toBe("contacts/ios/");
    expect(commonPrefix(["calendar_android_dayToDrawer", "calendar_android_drawerToDay"])).toBe("calendar_android_");
    expect(commonPrefix(["a/b", "a/b/c"])).toBe("a/");
    expect(commonPrefix(["a/", "a/b"])).toBe("");
    expect(commonPrefix(["home", "homework"])).toBe("");
    expect(commonPrefix(["only/one"])).toBe("");
  });

  test("wrapLabel: lines broken after separators, at most three, the last cut with …", () => {
    expect(wrapLabel("visual-identity-composition-memoji-section")).toEqual(["visual-identity-", "composition-memoji-", "section"]);
    expect(wrapLabel("short")).toEqual(["short"]);
    expect(wrapLabel("x".repeat(70))).toEqual(["x".repeat(21), "x".repeat(21), `${"x".repeat(20)}…`]);
  });

  test("midpoint and basisPath", () => {
    expect(
      midpoint([
        { x: 0, y: 0 },
        { x: 0, y: 10 },
        { x: 10, y: 10 },
      ]),
    ).toEqual({ x: 0, y: 10 });
    expect(
      basisPath([
        { x: 0, y: 0 },
        { x: 10, y: 0 },
      ]),
    ).toBe("M0,0L10,0");
    expect(
      basisPath([
        { x: 0, y: 0 },
        { x: 6, y: 0 },
        { x: 6, y: 6 },
      ]),
    ).toBe("M0,0L1,0C2,0,4,0,5,1C6,2,6,4,6,6");
    expect(
      basisPath([
        { x: Number.NaN, y: 1 },
        { x: 2, y: Infinity },
      ]),
    ).toBe("M0,1L2,0");
  });
});
