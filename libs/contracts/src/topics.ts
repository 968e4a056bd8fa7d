/**
 * The bus topics. Topics are coarse (one per publishing domain); the message
 * `type` names the event and the `key` (table id, base id, user id) orders it.
 */
export const topics = {
  records: 'tabula.records',
  meta: 'tabula.meta',
  auth: 'tabula.auth',
  comments: 'tabula.comments',
  integrations: 'tabula.integrations',
} as const;

/** One of the topic names in {@link topics}. */
export type Topic = (typeof topics)[keyof typeof topics];
