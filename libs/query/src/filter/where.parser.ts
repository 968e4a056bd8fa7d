import { QueryError } from '../query-error';
import type { LogicalOp, RawCondition, RawGroup, RawNode } from './filter.types';
import { FILTER_LIMITS } from './limits';
import { WhereScanner } from './where.scanner';

const OPERATOR_NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/**
 * Parses the `where` language into an unresolved tree (column and operator
 * names as written). Grammar: terms `(Column,op[,value])` or `(group)`, joined
 * by `~and`, `~or`, `~not`; a leading `~not` negates the first term.
 * Throws {@link QueryError} 422 on bad syntax, nesting deeper than 50 or a
 * string longer than 10,000 characters.
 */
export function parseWhereSyntax(where: string): RawGroup {
  if (where.length > FILTER_LIMITS.maxWhereLength) {
    throw QueryError.invalidFilter(`Invalid where: longer than ${FILTER_LIMITS.maxWhereLength} characters`);
  }
  const parser = new WhereParser(where);
  return parser.parseRoot();
}

class WhereParser {
  private readonly scan: WhereScanner;
  private pos = 0;

  constructor(private readonly src: string) {
    this.scan = new WhereScanner(src);
  }

  parseRoot(): RawGroup {
    this.pos = this.scan.skipWs(0);
    if (this.pos >= this.src.length) return { type: 'group', logicalOp: 'and', children: [] };
    const children = this.parseSequence(0);
    if (this.pos < this.src.length) this.fail(`unexpected '${this.src[this.pos]}'`);
    return { type: 'group', logicalOp: 'and', children };
  }

  /** Terms joined by connectors, up to the end or a `)` closing the enclosing group. */
  private parseSequence(depth: number): RawNode[] {
    const nodes: RawNode[] = [];
    for (;;) {
      this.pos = this.scan.skipWs(this.pos);
      const logicalOp = this.parseConnector(nodes.length === 0);
      this.pos = this.scan.skipWs(this.pos);
      if (this.src[this.pos] !== '(') this.fail("expected '('");
      nodes.push(this.parseParenthesised(depth, logicalOp));
      this.pos = this.scan.skipWs(this.pos);
      if (this.pos >= this.src.length || this.src[this.pos] === ')') return nodes;
    }
  }

  /** `~and` / `~or` / `~not`; optional before the first term, required after. */
  private parseConnector(first: boolean): LogicalOp {
    if (this.src[this.pos] !== '~') {
      if (!first) this.fail("expected '~and', '~or' or '~not'");
      return 'and';
    }
    const word = /^~([A-Za-z]*)/.exec(this.src.slice(this.pos, this.pos + 16))?.[1] ?? '';
    const op = word.toLowerCase();
    if (op !== 'and' && op !== 'or' && op !== 'not') this.fail(`unknown logical operator '~${word}'`);
    this.pos += word.length + 1;
    return op as LogicalOp;
  }

  /** A group `((…)…)` or a condition `(Column,op,value)`; `pos` is at the `(`. */
  private parseParenthesised(depth: number, logicalOp: LogicalOp): RawNode {
    this.pos = this.scan.skipWs(this.pos + 1);
    const next = this.src[this.pos];
    if (next !== '(' && next !== '~') return this.parseCondition(depth, logicalOp);
    if (depth + 1 > FILTER_LIMITS.maxDepth) {
      throw QueryError.invalidFilter(`Invalid where: groups nested deeper than ${FILTER_LIMITS.maxDepth}`);
    }
    const children = this.parseSequence(depth + 1);
    if (this.src[this.pos] !== ')') this.fail("expected ')' closing a group");
    this.pos++;
    return { type: 'group', logicalOp, children };
  }

  private parseCondition(openGroups: number, logicalOp: LogicalOp): RawCondition {
    const comma = this.src.indexOf(',', this.pos);
    if (comma < 0) this.fail("expected ',' after the column name");
    const field = this.src.slice(this.pos, comma).trim();
    if (!field) this.fail('missing column name');
    this.pos = this.scan.skipWs(comma + 1);
    const opName = OPERATOR_NAME.exec(this.src.slice(this.pos, this.pos + 64))?.[0];
    if (!opName) this.fail('missing comparison operator');
    this.pos = this.scan.skipWs(this.pos + opName.length);
    const condition: RawCondition = { type: 'condition', logicalOp, field, op: opName, fromWhere: true };
    if (this.src[this.pos] === ')') {
      this.pos++;
      return condition;
    }
    if (this.src[this.pos] !== ',') this.fail(`invalid comparison operator near '${opName}'`);
    const end = this.scan.valueEnd(this.pos + 1, openGroups);
    condition.value = this.src.slice(this.pos + 1, end).trim();
    this.pos = end + 1;
    return condition;
  }

  private fail(reason: string): never {
    throw QueryError.invalidFilter(`Invalid where: ${reason} at position ${this.pos}`, { position: this.pos });
  }
}
