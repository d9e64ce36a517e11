/**
 * Calculated-metric expressions (docs/product.md §3): + - * / with parentheses, unary minus, numbers and
 * metric identifiers. A hand-written tokenizer and recursive-descent parser, because the
 * expressions are user input evaluated on the server and in every viewer's browser: eval or
 * Function would run arbitrary code.
 */

/** Longest expression accepted; bounds parse time and memory on the server. */
export const MAX_EXPRESSION_LENGTH = 1000;
/** Deepest nesting of parentheses and unary signs; bounds recursion so no input overflows the stack. */
export const MAX_EXPRESSION_DEPTH = 64;

export type ExpressionNode =
  | { kind: "number"; value: number }
  | { kind: "metric"; name: string }
  | { kind: "negate"; operand: ExpressionNode }
  | { kind: "binary"; op: "+" | "-" | "*" | "/"; left: ExpressionNode; right: ExpressionNode };

type Token =
  | { kind: "number"; value: number; at: number }
  | { kind: "metric"; name: string; at: number }
  | { kind: "op"; op: "+" | "-" | "*" | "/" | "(" | ")"; at: number }
  | { kind: "end"; at: number };

export type ParseResult =
  | { ok: true; ast: ExpressionNode; metrics: string[] }
  | { ok: false; error: string; position: number };

class ExpressionSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)/;
// Identifiers start with a letter or underscore so '2x' is never read as a name.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_.]*/;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const char = source[at];
    if (/\s/.test(char)) {
      at += 1;
      continue;
    }
    const rest = source.slice(at);
    const number = NUMBER.exec(rest);
    if (number) {
      tokens.push({ kind: "number", value: Number(number[0]), at });
      at += number[0].length;
      continue;
    }
    const identifier = IDENTIFIER.exec(rest);
    if (identifier) {
      tokens.push({ kind: "metric", name: identifier[0], at });
      at += identifier[0].length;
      continue;
    }
    if (char === "{") {
      const close = source.indexOf("}", at + 1);
      if (close < 0) throw new ExpressionSyntaxError("Unclosed '{'", at);
      const name = source.slice(at + 1, close).trim();
      if (name === "" || name.includes("{")) throw new ExpressionSyntaxError("Empty or invalid metric name", at);
      tokens.push({ kind: "metric", name, at });
      at = close + 1;
      continue;
    }
    if (char === "+" || char === "-" || char === "*" || char === "/" || char === "(" || char === ")") {
      tokens.push({ kind: "op", op: char, at });
      at += 1;
      continue;
    }
    throw new ExpressionSyntaxError(`Unexpected character '${char}'`, at);
  }
  tokens.push({ kind: "end", at: source.length });
  return tokens;
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): ExpressionNode {
    const node = this.sum();
    const next = this.peek();
    if (next.kind !== "end") throw new ExpressionSyntaxError("Unexpected token", next.at);
    return node;
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private isOp(...ops: string[]): boolean {
    const token = this.peek();
    return token.kind === "op" && ops.includes(token.op);
  }

  private take(): Token {
    const token = this.tokens[this.index];
    this.index += 1;
    return token;
  }

  private enter(at: number): void {
    this.depth += 1;
    if (this.depth > MAX_EXPRESSION_DEPTH) throw new ExpressionSyntaxError("Expression is nested too deeply", at);
  }

  // sum := product (('+' | '-') product)*
  private sum(): ExpressionNode {
    let left = this.product();
    while (this.isOp("+", "-")) {
      const op = (this.take() as { op: "+" | "-" }).op;
      left = { kind: "binary", op, left, right: this.product() };
    }
    return left;
  }

  // product := unary (('*' | '/') unary)*
  private product(): ExpressionNode {
    let left = this.unary();
    while (this.isOp("*", "/")) {
      const op = (this.take() as { op: "*" | "/" }).op;
      left = { kind: "binary", op, left, right: this.unary() };
    }
    return left;
  }

  // unary := ('-' | '+') unary | primary
  private unary(): ExpressionNode {
    if (this.isOp("-", "+")) {
      const token = this.take() as { op: string; at: number };
      this.enter(token.at);
      const operand = this.unary();
      this.depth -= 1;
      return token.op === "-" ? { kind: "negate", operand } : operand;
    }
    return this.primary();
  }

  // primary := number | metric | '(' sum ')'
  private primary(): ExpressionNode {
    const token = this.take();
    if (token.kind === "number") return { kind: "number", value: token.value };
    if (token.kind === "metric") return { kind: "metric", name: token.name };
    if (token.kind === "op" && token.op === "(") {
      this.enter(token.at);
      const inner = this.sum();
      this.depth -= 1;
      const close = this.take();
      if (close.kind !== "op" || close.op !== ")") throw new ExpressionSyntaxError("Expected ')'", close.at);
      return inner;
    }
    throw new ExpressionSyntaxError(
      token.kind === "end" ? "Unexpected end of expression" : "Unexpected token",
      token.at,
    );
  }
}

function collectMetrics(node: ExpressionNode, into: Set<string>): Set<string> {
  if (node.kind === "metric") into.add(node.name);
  if (node.kind === "negate") collectMetrics(node.operand, into);
  if (node.kind === "binary") {
    collectMetrics(node.left, into);
    collectMetrics(node.right, into);
  }
  return into;
}

/** Parses an expression; on failure says what is wrong and at which character. */
export function parseExpression(source: string): ParseResult {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    return { ok: false, error: `Expression is longer than ${MAX_EXPRESSION_LENGTH} characters`, position: 0 };
  }
  try {
    const ast = new Parser(tokenize(source)).parse();
    return { ok: true, ast, metrics: [...collectMetrics(ast, new Set())] };
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return { ok: false, error: error.message, position: error.position };
    throw error;
  }
}

/** Evaluates a parsed expression; a missing metric or a division by zero gives NaN (shown as N/A). */
export function evaluateNode(node: ExpressionNode, values: Readonly<Record<string, number>>): number {
  switch (node.kind) {
    case "number":
      return node.value;
    case "metric":
      return Object.hasOwn(values, node.name) ? values[node.name] : Number.NaN;
    case "negate":
      return -evaluateNode(node.operand, values);
    case "binary": {
      const left = evaluateNode(node.left, values);
      const right = evaluateNode(node.right, values);
      if (node.op === "+") return left + right;
      if (node.op === "-") return left - right;
      if (node.op === "*") return left * right;
      return right === 0 ? Number.NaN : left / right;
    }
  }
}

/** Parses and evaluates in one step; an invalid expression gives NaN rather than throwing. */
export function evaluateExpression(source: string, values: Readonly<Record<string, number>>): number {
  const parsed = parseExpression(source);
  return parsed.ok ? evaluateNode(parsed.ast, values) : Number.NaN;
}
