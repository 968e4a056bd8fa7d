import { pageInfo, resolvePaging, type commentSchema, type listOf, type pagingQuery } from '@tabula/contracts';
import type { z } from 'zod';
import type { CommentsPorts } from '../../ports';
import { countLiveComments, listLiveComments } from '../../repositories/comment.repository';
import { presentComment } from '../../presenters/comment.presenter';
import type { TableInScope } from './comment-access';

/** Page size of comment lists when none is asked, and the largest one. */
export const COMMENT_PAGING = { limit: 25, max: 1000 };

/** A page of comments as the list endpoints answer it. */
type CommentPage = z.infer<ReturnType<typeof listOf<typeof commentSchema>>>;

/** A record's live comments, oldest first, paged with `pageInfo`. */
export async function listComments(
  ports: CommentsPorts, scope: TableInScope, rowId: string, paging: z.infer<typeof pagingQuery>,
): Promise<CommentPage> {
  const table = scope.value;
  const { limit, offset } = resolvePaging(paging, COMMENT_PAGING);
  const { rows, total } = await listLiveComments(ports.db, { baseId: table.baseId, tableId: table.tableId, rowId }, { limit, offset });
  return { list: rows.map(presentComment), pageInfo: pageInfo(total, limit, offset) };
}

/** `{ rowId: n }` for every asked id (0 included), one SQL statement. */
export async function countComments(ports: CommentsPorts, scope: TableInScope, rowIds: string[]): Promise<Record<string, number>> {
  const table = scope.value;
  return countLiveComments(ports.db, { baseId: table.baseId, tableId: table.tableId }, rowIds);
}
