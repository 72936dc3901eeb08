// Maps positions in a generated file back to sources through a v3 source map (the `mappings`
// VLQ format), enough to name the file, line and column an esbuild output position came from.

export interface SourceMapV3 {
  sources: string[];
  mappings: string;
}

export interface OriginalPosition {
  source: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

const B64 = new Map([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].map((c, i) => [c, i]));

/** Segments per generated line: [generatedColumn, sourceIndex, originalLine, originalColumn] (0-based). */
function decode(mappings: string): number[][][] {
  const lines: number[][][] = [];
  let source = 0;
  let origLine = 0;
  let origCol = 0;
  for (const lineText of mappings.split(";")) {
    const segments: number[][] = [];
    let genCol = 0;
    for (const segmentText of lineText.split(",")) {
      if (segmentText === "") continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segmentText) {
        const digit = B64.get(char) ?? 0;
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      genCol += values[0] ?? 0;
      if (values.length >= 4) {
        source += values[1]!;
        origLine += values[2]!;
        origCol += values[3]!;
        segments.push([genCol, source, origLine, origCol]);
      }
    }
    lines.push(segments);
  }
  return lines;
}

export class SourceMapper {
  private readonly lines: number[][][];
  constructor(private readonly map: SourceMapV3) {
    this.lines = decode(map.mappings);
  }

  /** The source position of generated (0-based) `line`/`column`, from the nearest mapping at or before it. */
  original(line: number, column: number): OriginalPosition | undefined {
    const segments = this.lines[line] ?? [];
    let best: number[] | undefined;
    for (const segment of segments) {
      if (segment[0]! <= column) best = segment;
      else break;
    }
    if (!best) return undefined;
    const source = this.map.sources[best[1]!];
    return source === undefined ? undefined : { source, line: best[2]! + 1, column: best[3]! + 1 };
  }
}
