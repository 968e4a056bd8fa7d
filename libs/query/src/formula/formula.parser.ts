import { FORMULA_LIMITS, type BinaryOp, type FormulaNode } from './formula.ast';
import { formulaError } from './formula.error';
import { tokenize, type Token } from './formula.lexer';

/** Binding power of infix operators (higher binds tighter). */
const PRECEDENCE: Record<string, number> = {
  '||': 1, '&&': 2, '=': 3, '!=': 3, '<': 4, '<=': 4, '>': 4, '>=': 4, '&': 5, '+': 6, '-': 6, '*': 7, '/': 7,
};

class Parser {
  private i = 0;
  private nodes = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): FormulaNode {
    if (this.peek().type === 'eof') throw formulaError('empty formula', 0);
    const node = this.expression(0, 0);
    const rest = this.peek();
    if (rest.type !== 'eof') throw formulaError(`unexpected ${describe(rest)}`, rest.pos);
    return node;
  }

  private peek(): Token { return this.tokens[this.i]; }
  private next(): Token { return this.tokens[this.i++]; }

  private count(pos: number, depth: number): void {
    this.nodes += 1;
    if (this.nodes > FORMULA_LIMITS.maxNodes) throw formulaError(`more than ${FORMULA_LIMITS.maxNodes} terms`, pos);
    if (depth > FORMULA_LIMITS.maxDepth) throw formulaError(`nested deeper than ${FORMULA_LIMITS.maxDepth} levels`, pos);
  }

  private expect(value: string): Token {
    const t = this.next();
    if (t.type !== 'op' || t.value !== value) throw formulaError(`expected '${value}' but found ${describe(t)}`, t.pos);
    return t;
  }

  private expression(minPower: number, depth: number): FormulaNode {
    let left = this.unary(depth + 1);
    for (;;) {
      const t = this.peek();
      const power = t.type === 'op' ? PRECEDENCE[t.value] : undefined;
      if (power === undefined || power <= minPower) return left;
      this.next();
      this.count(t.pos, depth);
      const right = this.expression(power, depth + 1);
      left = { kind: 'binary', op: (t as { value: string }).value as BinaryOp, left, right, pos: t.pos };
    }
  }

  private unary(depth: number): FormulaNode {
    const t = this.peek();
    this.count(t.pos, depth);
    if (t.type === 'op' && (t.value === '-' || t.value === '+' || t.value === '!')) {
      this.next();
      return { kind: 'unary', op: t.value, arg: this.unary(depth + 1), pos: t.pos };
    }
    return this.primary(depth);
  }

  private primary(depth: number): FormulaNode {
    const t = this.next();
    switch (t.type) {
      case 'number': return { kind: 'number', value: t.value, pos: t.pos };
      case 'string': return { kind: 'string', value: t.value, pos: t.pos };
      case 'field': return { kind: 'field', name: t.value, pos: t.pos };
      case 'ident': return this.identifier(t, depth);
      case 'op':
        if (t.value === '(') {
          const inner = this.expression(0, depth + 1);
          this.expect(')');
          return inner;
        }
        throw formulaError(`unexpected '${t.value}'`, t.pos);
      default: throw formulaError('unexpected end of formula', t.pos);
    }
  }

  private identifier(t: Token & { type: 'ident' }, depth: number): FormulaNode {
    const upper = t.value.toUpperCase();
    const follows = this.peek();
    if (follows.type === 'op' && follows.value === '(') {
      this.next();
      const args: FormulaNode[] = [];
      if (!(this.peek().type === 'op' && (this.peek() as { value: string }).value === ')')) {
        for (;;) {
          args.push(this.expression(0, depth + 1));
          const sep = this.next();
          if (sep.type === 'op' && sep.value === ')') break;
          if (!(sep.type === 'op' && sep.value === ',')) throw formulaError(`expected ',' or ')' but found ${describe(sep)}`, sep.pos);
        }
      } else {
        this.next();
      }
      return { kind: 'call', name: upper, args, pos: t.pos };
    }
    if (upper === 'TRUE' || upper === 'FALSE') return { kind: 'boolean', value: upper === 'TRUE', pos: t.pos };
    throw formulaError(`unknown name '${t.value}' (field names go in braces: {${t.value}})`, t.pos);
  }
}

function describe(t: Token): string {
  if (t.type === 'eof') return 'the end of the formula';
  if (t.type === 'string') return 'a string';
  if (t.type === 'number') return `the number ${t.value}`;
  if (t.type === 'field') return `the field {${t.value}}`;
  return `'${t.value}'`;
}

/** Parses formula text into an AST; throws a 400 QueryError naming the position. */
export function parseFormula(src: string): FormulaNode {
  return new Parser(tokenize(src)).parse();
}
