import { QueryError } from '../query-error';

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v']);
const CONNECTOR_WORDS = new Set(['and', 'or', 'not']);

/**
 * Character-level helpers for the where parser: whitespace, connectors and,
 * above all, where a condition's value ends.
 */
export class WhereScanner {
  constructor(readonly src: string) {}

  /** Position of the first non-whitespace character at or after `pos`. */
  skipWs(pos: number): number {
    let p = pos;
    while (p < this.src.length && WHITESPACE.has(this.src[p])) p++;
    return p;
  }

  /** True when `~and(`, `~or(` or `~not(` (whitespace before `(` allowed) starts at `pos`. */
  connectorAt(pos: number): boolean {
    if (this.src[pos] !== '~') return false;
    let end = pos + 1;
    while (end < this.src.length && end - pos <= 4 && /[A-Za-z]/.test(this.src[end])) end++;
    if (!CONNECTOR_WORDS.has(this.src.slice(pos + 1, end).toLowerCase())) return false;
    return this.src[this.skipWs(end)] === '(';
  }

  /**
   * Index of the `)` closing a condition whose value starts at `start`, inside
   * `openGroups` groups. The value runs to the condition's closing parenthesis,
   * so it may hold commas and parentheses. A `)` ends the value when what follows
   * it can follow a condition: the end (once every open group is closed), a
   * connector, or closing parentheses of open groups. Balanced parentheses in the
   * value are preferred (`f(x, y)` stays whole); failing that (`:-)`, `(note`), the
   * first `)` with a valid continuation is taken, as NocoDB's greedy match would.
   */
  valueEnd(start: number, openGroups: number): number {
    let depth = 0;
    for (let i = start; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth > 0) depth--;
        else if (this.canFollowCondition(i + 1, openGroups)) return i;
      }
    }
    for (let i = start; i < this.src.length; i++) {
      if (this.src[i] === ')' && this.canFollowCondition(i + 1, openGroups)) return i;
    }
    throw QueryError.invalidFilter(`Invalid where: unterminated condition starting at position ${start}`, {
      position: start,
    });
  }

  /** True when the text from `pos` may follow a condition inside `openGroups` groups. */
  private canFollowCondition(pos: number, openGroups: number): boolean {
    let closed = 0;
    let p = pos;
    for (;;) {
      p = this.skipWs(p);
      if (p >= this.src.length) return closed === openGroups;
      if (this.src[p] === ')') {
        closed++;
        if (closed > openGroups) return false;
        p++;
        continue;
      }
      return this.connectorAt(p);
    }
  }
}
