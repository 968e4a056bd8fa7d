import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { idText } from './comment.schema';
import { USERS } from '../endpoint/access';

/** Most row ids one count request may ask for. */
export const COMMENT_COUNT_MAX_IDS = 1000;

/**
 * One `ids` value as it arrives in a query: repeated `ids=`/`ids[]=` keys give
 * an array, a single key a string (one id, or a JSON array). Anything that is
 * not a list of ids (a JSON object, `ids[key]=` notation, nested values) is refused.
 */
function toIdList(value: unknown, issue: (message: string) => void): string[] | undefined {
  let list: unknown = value;
  if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
    try { list = JSON.parse(value); } catch { issue('ids must be an array of row ids'); return undefined; }
  }
  if (typeof list === 'string' || typeof list === 'number') list = [list];
  const bad = (id: unknown) => (typeof id !== 'string' && typeof id !== 'number') || String(id) === '' || String(id).length > 255 || String(id).includes('\u0000');
  if (!Array.isArray(list) || list.some(bad)) {
    issue('ids must be an array of row ids');
    return undefined;
  }
  if (list.length > COMMENT_COUNT_MAX_IDS) {
    issue(`ids may hold at most ${COMMENT_COUNT_MAX_IDS} entries`);
    return undefined;
  }
  return [...new Set(list.map(String))];
}

/** `fk_model_id` and `ids` (also spelled `ids[]`); other `ids[...]` keys mean an object, which is refused. */
const countQuery = z.object({
  fk_model_id: idText.describe('Table id'),
  ids: z.union([z.array(z.string()), z.string()]).optional().describe('Required: row ids as a repeated key (ids=1&ids=2 or ids[]=1), or one JSON array; at most 1000'),
}).catchall(z.unknown()).transform((q, ctx) => {
  const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['ids'], message });
  const extra = Object.keys(q).filter((k) => /^ids\[.+\]$/.test(k));
  if (extra.length) { issue('ids must be an array of row ids'); return z.NEVER; }
  const raw = [q.ids, q['ids[]']].filter((v) => v !== undefined).flat();
  if (!raw.length) { issue('ids is required'); return z.NEVER; }
  const ids = toIdList(raw.length === 1 ? raw[0] : raw, issue);
  return ids ? { fk_model_id: q.fk_model_id, ids } : z.NEVER;
});

/**
 * `GET /api/v1/db/meta/comments/count?fk_model_id=&ids=1&ids=2`: live comments
 * per record, `{ rowId: n }`, with every asked id present (0 included); one SQL statement.
 */
export const commentCount = defineEndpoint({
  id: 'commentCount', method: 'GET', path: '/api/v1/db/meta/comments/count', service: 'comments', auth: { callers: USERS, permission: 'comment.read', scope: { via: 'table', id: (i) => i.query.fk_model_id } },
  summary: 'Count comments per record', tags: ['Comments'],
  description: '`ids` repeated (`ids=1&ids=2` or `ids[]=1`), or one JSON array; at most 1000. Viewer and up.',
  query: countQuery as unknown as z.ZodType<{ fk_model_id: string; ids: string[] }>,
  response: z.record(z.string(), z.number().int()), errors: [403, 404],
  example: { response: { 1: 2, 2: 0 } },
});
