// Arithmetic for `assertMath`: numbers, + - * / % ^, unary minus, parentheses and a few
// functions (abs, sqrt, round, floor, ceil, min, max). A recursive-descent parser; no eval.

const FUNCTIONS: Record<string, (...args: number[]) => number> = {
  abs: Math.abs,
  sqrt: Math.sqrt,
  round: Math.round,
  floor: Math.floor,
  ceil: Math.ceil,
  min: Math.min,
  max: Math.max,
};

export class MathExpressionError extends Error {}

/** Evaluates `expression`; throws MathExpressionError saying what is wrong and where. */
export function evaluateMath(expression: string): number {
  const tokens = [...expression.matchAll(/\s*(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|\.\d+|[A-Za-z_]\w*|[-+*/%^(),])/gy)];
  const consumed = tokens.reduce((n, t) => n + t[0].length, 0);
  if (expression.slice(consumed).trim() !== "") {
    throw new MathExpressionError(
      `unexpected "${expression.slice(consumed).trim()[0]}" at position ${consumed + expression.slice(consumed).search(/\S/) + 1}`,
    );
  }
  const list = tokens.map((t) => t[1]!);
  let i = 0;
  const peek = () => list[i];
  const take = (want?: string) => {
    const token = list[i];
    if (want !== undefined && token !== want)
      throw new MathExpressionError(token === undefined ? `expected "${want}" at the end` : `expected "${want}", got "${token}"`);
    i++;
    return token;
  };

  const primary = (): number => {
    const token = take();
    if (token === undefined) throw new MathExpressionError("the expression ends too early");
    if (token === "(") {
      const value = sum();
      take(")");
      return value;
    }
    if (token === "-") return -power();
    if (token === "+") return power();
    if (/^[\d.]/.test(token)) return Number(token);
    if (!/^[A-Za-z_]/.test(token)) throw new MathExpressionError(`unexpected "${token}"`);
    const fn = FUNCTIONS[token.toLowerCase()];
    if (!fn) throw new MathExpressionError(`unknown name "${token}" (functions: ${Object.keys(FUNCTIONS).join(", ")})`);
    take("(");
    const args = [sum()];
    while (peek() === ",") {
      take(",");
      args.push(sum());
    }
    take(")");
    return fn(...args);
  };
  const power = (): number => {
    const base = primary();
    if (peek() !== "^") return base;
    take("^");
    return base ** power();
  };
  const product = (): number => {
    let value = power();
    for (let op = peek(); op === "*" || op === "/" || op === "%"; op = peek()) {
      take();
      const right = power();
      value = op === "*" ? value * right : op === "/" ? value / right : value % right;
    }
    return value;
  };
  const sum = (): number => {
    let value = product();
    for (let op = peek(); op === "+" || op === "-"; op = peek()) {
      take();
      const right = product();
      value = op === "+" ? value + right : value - right;
    }
    return value;
  };

  const value = sum();
  if (i < list.length) throw new MathExpressionError(`unexpected "${list[i]}" after a complete expression`);
  return value;
}
