/** The value types of formula expressions. `null` is the type of BLANK() (fits any). */
export type FormulaType = 'number' | 'string' | 'boolean' | 'date' | 'datetime' | 'null';

/** A node of a parsed formula; `pos` is the 0-based offset in the source text. */
export type FormulaNode =
  | { kind: 'number'; value: number; pos: number }
  | { kind: 'string'; value: string; pos: number }
  | { kind: 'boolean'; value: boolean; pos: number }
  | { kind: 'field'; name: string; pos: number }
  | { kind: 'call'; name: string; args: FormulaNode[]; pos: number }
  | { kind: 'unary'; op: '-' | '+' | '!'; arg: FormulaNode; pos: number }
  | { kind: 'binary'; op: BinaryOp; left: FormulaNode; right: FormulaNode; pos: number };

/** Infix operators, by family. */
export type BinaryOp = '+' | '-' | '*' | '/' | '&' | '=' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

/** Limits that keep parsing and compiling bounded. */
export const FORMULA_LIMITS = {
  /** Longest formula text accepted. */
  maxLength: 4000,
  /** Deepest nesting of calls, operators and parentheses. */
  maxDepth: 48,
  /** Most nodes in one formula (after references to other formulas are expanded). */
  maxNodes: 2000,
  /**
   * Longest text a formula yields: its value and every REPT, CONCAT, `&` and
   * REPLACE inside it are cut here in SQL, so nesting cannot multiply it.
   */
  maxTextLength: 10_000,
  /** Longest compiled SQL (the guards repeat some operands: refuses pathological nesting). */
  maxSqlLength: 400_000,
  /** Most bound values in one compiled formula. */
  maxBindings: 10_000,
} as const;

/** Field names a formula references (each once, in order of first use). */
export function fieldReferences(node: FormulaNode): string[] {
  const out: string[] = [];
  const stack: FormulaNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.kind === 'field') { if (!out.includes(n.name)) out.push(n.name); continue; }
    if (n.kind === 'call') stack.push(...[...n.args].reverse());
    else if (n.kind === 'unary') stack.push(n.arg);
    else if (n.kind === 'binary') stack.push(n.right, n.left);
  }
  return out;
}
