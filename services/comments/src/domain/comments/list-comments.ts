import { pageInfo, resolvePaging, type commentSchema, type listOf, type pagingQuery } from '@tabula/contracts';
import type { z } from 'zod';
import type { Principal } from '@tabula/auth';
import type { CommentsPorts } from '../../ports';
import { countLiveComments, listLiveComments } from '../../repositories/comment.repository';
import { presentComment } from '../../presenters/comment.presenter';
import { requireTable } from './comment-access';

/** Page size of comment lists when none is asked, and the largest one. */
export const COMMENT_PAGING = { limit: 25, max: 1000 };

/** A page of comments as the list endpoints answer it. */
type CommentPage = z.infer<ReturnType<typeof listOf<typeof commentSchema>>>;

/** A record's live comments, oldest first, paged with `pageInfo` (viewer and up). */
export async function listComments(
  ports: CommentsPorts, principal: Principal, ref: { tableId: string; rowId: string }, paging: z.infer<typeof pagingQuery>,
): Promise<CommentPage> {
  const table = await requireTable(ports, principal, ref.tableId, 'comment.read');
  const { limit, offset } = resolvePaging(paging, COMMENT_PAGING);
  const { rows, total } = await listLiveComments(ports.db, { baseId: table.baseId, tableId: table.tableId, rowId: ref.rowId }, { limit, offset });
  return { list: rows.map(presentComment), pageInfo: pageInfo(total, limit, offset) };
}

/** `{ rowId: n }` for every asked id (0 included), one SQL statement (viewer and up). */
export async function countComments(ports: CommentsPorts, principal: Principal, tableId: string, rowIds: string[]): Promise<Record<string, number>> {
  const table = await requireTable(ports, principal, tableId, 'comment.read');
  return countLiveComments(ports.db, { baseId: table.baseId, tableId: table.tableId }, rowIds);
}
