// "Did you mean" suggestions: edit distance between names and the closest candidates.

/**
 * Optimal-string-alignment distance: insertions, deletions, substitutions and
 * swaps of two neighbouring characters each cost 1 (`comand`→`command` = 1,
 * `dispaly`→`display` = 1).
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      }
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/** Distance used for ranking: case, `-` and `_` differences cost nothing. */
function nameDistance(a: string, b: string): number {
  const norm = (s: string) => s.toLowerCase().replaceAll("_", "-");
  return editDistance(norm(a), norm(b));
}

/**
 * Every candidate ordered by closeness to `name` (closest first; ties keep the
 * candidates' order). For listing known names, e.g. "known keys: …".
 */
export function byCloseness(name: string, candidates: Iterable<string>): string[] {
  return [...candidates]
    .map((candidate, index) => ({ candidate, index, distance: nameDistance(name, candidate) }))
    .sort((x, y) => x.distance - y.distance || x.index - y.index)
    .map((x) => x.candidate);
}

/**
 * Up to `max` candidates close enough to `name` to be a likely typo, closest
 * first. "Close enough" is an edit distance of at most a third of the longer
 * name (minimum 1), or one name containing the other.
 * @param max most suggestions returned; default 3
 */
export function closest(name: string, candidates: Iterable<string>, max = 3): string[] {
  const wanted = name.toLowerCase();
  const scored: { candidate: string; index: number; distance: number }[] = [];
  let index = 0;
  for (const candidate of new Set(candidates)) {
    const distance = nameDistance(name, candidate);
    const limit = Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 3));
    const lower = candidate.toLowerCase();
    const contains = wanted.length >= 3 && (lower.includes(wanted) || wanted.includes(lower));
    if (candidate !== name && (distance <= limit || contains)) scored.push({ candidate, index, distance });
    index++;
  }
  return scored
    .sort((x, y) => x.distance - y.distance || x.index - y.index)
    .slice(0, max)
    .map((x) => x.candidate);
}

/** `; did you mean "a" or "b"?` — empty when there is nothing close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const found = closest(name, candidates);
  if (found.length === 0) return "";
  const quoted = found.map((c) => `"${c}"`);
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
  return `; did you mean ${list}?`;
}

/**
 * `unknown driver "x"; did you mean "y"? Known drivers: a, b` — or, with nothing
 * close, `unknown driver "x"; known drivers: a, b`. `plural` defaults to `${kind}s`.
 */
export function unknownNameMessage(kind: string, name: string, known: readonly string[], plural = `${kind}s`): string {
  const hint = didYouMean(name, known);
  const list = known.join(", ");
  return hint ? `unknown ${kind} "${name}"${hint} Known ${plural}: ${list}` : `unknown ${kind} "${name}"; known ${plural}: ${list}`;
}
