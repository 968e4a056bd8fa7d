import { z } from 'zod';
import { defineEndpoint } from '../endpoint/define-endpoint';
import { commentExample, commentSchema, idText } from './comment.schema';
import { USERS } from '../endpoint/access';

/**
 * `POST /api/v2/comments/{commentId}/resolve`: creator, owner or super. The
 * body flag chooses the state (idempotent): absent or `true` resolves,
 * `{ "resolved": false }` unresolves.
 */
export const commentResolve = defineEndpoint({
  id: 'commentResolve', method: 'POST', path: '/api/v2/comments/{commentId}/resolve', service: 'comments', auth: { callers: USERS, permission: 'comment.resolve', scope: { via: 'comment', id: (i) => i.params.commentId } },
  summary: 'Resolve or unresolve a comment', tags: ['Comments'],
  description: 'Body `{ "resolved": false }` unresolves; no body (or `true`) resolves. Calling twice keeps the state.',
  params: z.object({ commentId: idText }),
  body: z.object({ resolved: z.boolean().default(true).describe('Target state (default true)') }),
  response: commentSchema, errors: [403, 404],
  example: { request: { resolved: true }, response: { ...commentExample, resolved_by: 'us0a1b2c3d4e5f6g', resolved_by_email: 'ann@example.com' } },
});
