/** How log lines are written: one JSON object per line (machines), or one readable line (a person at a terminal). */
export type LogFormat = 'json' | 'pretty';

/** Where log lines go (stdout unless a test gives another). */
export interface LogDestination { write(line: string): unknown; isTTY?: boolean }

/** LOG_FORMAT (`json` or `pretty`); unset: `pretty` when stdout is a terminal, else `json`. Anything else: `json`. */
export function logFormatFrom(env: NodeJS.ProcessEnv = process.env, isTty = process.stdout.isTTY === true): LogFormat {
  const value = (env.LOG_FORMAT ?? '').trim().toLowerCase();
  if (value === 'pretty' || value === 'json') return value;
  return value === '' && isTty ? 'pretty' : 'json';
}

const LEVEL_COLOURS: Record<string, string> = { trace: '90', debug: '36', info: '32', warn: '33', error: '31', fatal: '35' };
/** Fields the line's head shows (or that say nothing to a person reading it). */
const HEAD = new Set(['level', 'time', 'service', 'msg', 'pid', 'hostname']);

function scalar(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
}

/**
 * One JSON log line (what pino writes) as one readable line:
 * `12:04:05.123 INFO  data  request method=POST route=/api/… status=200`,
 * an error's message after the fields and its stack (when it has one)
 * indented below. `colour` adds ANSI colours to the level and the service.
 */
export function prettyLine(json: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const paint = (code: string, text: string) => (colour ? `\u001b[${code}m${text}\u001b[39m` : text);
  const level = String(entry.level ?? 'info');
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
  const parts = [time, paint(LEVEL_COLOURS[level] ?? '39', level.toUpperCase().padEnd(5)), paint('1', String(entry.service ?? '-')), String(entry.msg ?? '')];
  let stack = '';
  for (const [key, value] of Object.entries(entry)) {
    if (HEAD.has(key) || value === undefined) continue;
    if (key === 'err' && value && typeof value === 'object') {
      const err = value as { type?: string; message?: string; code?: string; stack?: string };
      parts.push(`err=${scalar(`${err.type ? `${err.type}: ` : ''}${err.message ?? ''}${err.code ? ` (${err.code})` : ''}`)}`);
      if (err.stack) stack = `\n    ${err.stack.split('\n').slice(1).map((l) => l.trim()).join('\n    ')}`;
      continue;
    }
    parts.push(`${key}=${scalar(value)}`);
  }
  return `${parts.filter((p) => p !== '').join(' ')}${stack}\n`;
}

/** A pino destination writing {@link prettyLine}s to `out` (stdout by default; colours when it is a terminal). */
export function prettyStream(out: LogDestination = process.stdout): { write(line: string): void } {
  const colour = out.isTTY === true && !process.env.NO_COLOR;
  return { write: (line: string) => { out.write(prettyLine(line, colour)); } };
}
