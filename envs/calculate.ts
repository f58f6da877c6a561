// Arithmetic with Python's rules for + - * / // ** and unary signs, for the `calculate` tool of any domain,
// written as a recursive-descent parser so that no text is ever run as code.
import { ToolError } from "./tool.ts";

const ALLOWED = /^[0-9+\-*/(). ]*$/;
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)/y;
const MAX_DEPTH = 200;

type Token = { kind: "num"; value: number } | { kind: "op"; op: string };

/**
 * Evaluates an arithmetic expression the way Python would (true division, floor division,
 * right-associative power binding tighter than a unary sign on its left) and rounds the
 * result to 2 places.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { calculate } from "./calculate.ts";
 * assertEquals(calculate("(2 + 3) * 4 / 3"), 6.67);
 * ```
 */
export function calculate(expression: string): number {
  if (!ALLOWED.test(expression)) throw new ToolError("invalid_args", "invalid characters in expression");
  const tokens = tokenize(expression);
  let pos = 0;
  let depth = 0;

  const peek = (): string | undefined => {
    const t = tokens[pos];
    return t?.kind === "op" ? t.op : undefined;
  };
  const expr = (): number => {
    let value = term();
    for (let op = peek(); op === "+" || op === "-"; op = peek()) {
      pos++;
      const right = term();
      value = op === "+" ? value + right : value - right;
    }
    return value;
  };
  const term = (): number => {
    let value = factor();
    for (let op = peek(); op === "*" || op === "/" || op === "//"; op = peek()) {
      pos++;
      const right = factor();
      if (op === "*") value *= right;
      else if (right === 0) throw new ToolError("invalid_args", "division by zero");
      else value = op === "/" ? value / right : floorDivide(value, right);
    }
    return value;
  };
  const factor = (): number => {
    const op = peek();
    if (op === "+" || op === "-") {
      pos++;
      const value = factor();
      return op === "-" ? -value : value;
    }
    const base = primary();
    if (peek() !== "**") return base;
    pos++;
    return power(base, factor());
  };
  const primary = (): number => {
    const t = tokens[pos++];
    if (t?.kind === "num") return t.value;
    if (t?.kind === "op" && t.op === "(") {
      if (++depth > MAX_DEPTH) throw new ToolError("invalid_args", "too many nested parentheses");
      const value = expr();
      if (peek() !== ")") throw syntaxError();
      pos++;
      depth--;
      return value;
    }
    throw syntaxError();
  };

  const value = expr();
  if (pos !== tokens.length) throw syntaxError();
  if (!Number.isFinite(value)) throw new ToolError("invalid_args", "result is not a finite real number");
  return Number(value.toFixed(2));
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === " ") {
      i++;
    } else if ((c >= "0" && c <= "9") || c === ".") {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) throw syntaxError();
      const literal = match[0];
      // Python rejects leading zeros in integer literals ("007") but not in floats ("007.5").
      if (!literal.includes(".") && /^0+[1-9]/.test(literal)) throw syntaxError();
      tokens.push({ kind: "num", value: Number(literal) });
      i += literal.length;
    } else if ((c === "*" || c === "/") && text[i + 1] === c) {
      tokens.push({ kind: "op", op: c + c });
      i += 2;
    } else {
      tokens.push({ kind: "op", op: c });
      i++;
    }
  }
  return tokens;
}

// Python's float floor division (via fmod), which is also exact for integers below 2**53.
function floorDivide(a: number, b: number): number {
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && (b < 0) !== (mod < 0)) div -= 1;
  if (div === 0) return 0 * (a / b);
  const floor = Math.floor(div);
  return div - floor > 0.5 ? floor + 1 : floor;
}

function power(base: number, exponent: number): number {
  if (base === 0 && exponent < 0) throw new ToolError("invalid_args", "division by zero");
  // Integer powers are exact in Python; BigInt gives the same correctly rounded result.
  if (Number.isInteger(base) && Number.isInteger(exponent) && exponent >= 0) {
    // Past 2**1100 the result is no finite double anyway; skip the huge BigInt.
    if (Math.log2(Math.abs(base) || 1) * exponent > 1100) return base ** exponent;
    return Number(BigInt(base) ** BigInt(exponent));
  }
  return base ** exponent;
}

function syntaxError(): ToolError {
  return new ToolError("invalid_args", "invalid syntax in expression");
}
