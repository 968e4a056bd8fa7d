import { commentList, commentListV2 } from './comment-list';
import { commentCreate, commentCreateV2 } from './comment-create';
import { commentUpdate, commentUpdateV2 } from './comment-update';
import { commentDelete, commentDeleteV2 } from './comment-delete';
import { commentCount } from './comment-count';
import { commentResolve } from './comment-resolve';

export * from './comment.schema';
export { COMMENT_COUNT_MAX_IDS } from './comment-count';

/** The comments service's public endpoints (v1 and v2 paths). */
export const commentsEndpoints = {
  commentList, commentCreate, commentUpdate, commentDelete, commentCount,
  commentListV2, commentCreateV2, commentUpdateV2, commentDeleteV2, commentResolve,
};
