// Math.random on a generator the host can seed (xoshiro128**). A session restored from an image
// of another would otherwise draw the same numbers as every session restored from it.

/** Replaces Math.random, seeded from the engine's own until the host calls `seed`. */
export function installSeededRandom(): { seed(a: number, b: number, c: number, d: number): void } {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const seed = (a: number, b: number, c: number, d: number) => {
    [s0, s1, s2, s3] = [a >>> 0, b >>> 0, c >>> 0, d >>> 0];
    // An all-zero state would only ever yield zero.
    if ((s0 | s1 | s2 | s3) === 0) s0 = 0x9e3779b9;
  };
  const next = () => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result;
  };
  const engine = Math.random;
  const word = () => Math.floor(engine() * 0x1_0000_0000);
  seed(word(), word(), word(), word());
  // 53 random bits, as engines build a double in [0, 1).
  const random = { random: () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992 }.random;
  Object.defineProperty(Math, "random", { value: random, writable: true, configurable: true, enumerable: false });
  return { seed };
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
