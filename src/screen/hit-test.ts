// Which node a tap at a point lands on: among the nodes whose bounds contain the point,
// upstream's order — interactive first, then identifiable (has text or an id), then the smallest
// area — and, when still tied, the deepest.

import { hasIdentifiableProperties, isInteractive, type Screen, type ScreenNode } from "./screen-model.ts";

/** Lexicographic "a sorts before b". */
function before(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return false;
}

export function hitTest(screen: Screen, x: number, y: number): ScreenNode | undefined {
  let best: ScreenNode | undefined;
  let bestKey: number[] = [];
  for (const node of screen.nodes) {
    const b = node.bounds;
    if (!b || x < b.left || x > b.right || y < b.top || y > b.bottom) continue;
    const key = [
      isInteractive(node.detail) ? 0 : 1,
      hasIdentifiableProperties(node.detail) ? 0 : 1,
      (b.right - b.left) * (b.bottom - b.top),
      -node.depth,
    ];
    if (!best || before(key, bestKey)) {
      best = node;
      bestKey = key;
    }
  }
  return best;
}
