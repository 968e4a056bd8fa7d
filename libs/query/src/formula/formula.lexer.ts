import { FORMULA_LIMITS } from './formula.ast';
import { formulaError } from './formula.error';

/** A token of the formula language. */
export type Token =
  | { type: 'number'; value: number; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'field'; value: string; pos: number }
  | { type: 'ident'; value: string; pos: number }
  | { type: 'op'; value: string; pos: number }
  | { type: 'eof'; pos: number };

const OPERATORS = ['&&', '||', '==', '!=', '<>', '<=', '>=', '+', '-', '*', '/', '&', '=', '<', '>', '!', '(', ')', ','];

function readString(src: string, start: number): { value: string; end: number } {
  const quote = src[start];
  let value = '';
  for (let i = start + 1; i < src.length; i += 1) {
    const ch = src[i];
    if (ch === '\\' && i + 1 < src.length) { value += src[i + 1]; i += 1; continue; }
    if (ch === quote) return { value, end: i + 1 };
    value += ch;
  }
  throw formulaError('unterminated string', start);
}

function readField(src: string, start: number): { value: string; end: number } {
  const close = src.indexOf('}', start + 1);
  if (close < 0) throw formulaError('unterminated field reference (missing })', start);
  const value = src.slice(start + 1, close).trim();
  if (!value) throw formulaError('empty field reference {}', start);
  return { value, end: close + 1 };
}

/** Splits formula text into tokens; refuses control characters and over-long text. */
export function tokenize(src: string): Token[] {
  if (src.length > FORMULA_LIMITS.maxLength) throw formulaError(`longer than ${FORMULA_LIMITS.maxLength} characters`);
  const nul = src.indexOf('\0');
  if (nul >= 0) throw formulaError('NUL character', nul);
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (/\s/.test(ch)) { i += 1; continue; }
    if (ch === '"' || ch === "'") { const s = readString(src, i); tokens.push({ type: 'string', value: s.value, pos: i }); i = s.end; continue; }
    if (ch === '{') { const f = readField(src, i); tokens.push({ type: 'field', value: f.value, pos: i }); i = f.end; continue; }
    const num = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i, i + 64));
    if (num) { tokens.push({ type: 'number', value: Number(num[0]), pos: i }); i += num[0].length; continue; }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 64));
    if (id) { tokens.push({ type: 'ident', value: id[0], pos: i }); i += id[0].length; continue; }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (!op) throw formulaError(`unexpected character '${ch}'`, i);
    tokens.push({ type: 'op', value: op === '==' ? '=' : op === '<>' ? '!=' : op, pos: i });
    i += op.length;
  }
  tokens.push({ type: 'eof', pos: src.length });
  return tokens;
}
