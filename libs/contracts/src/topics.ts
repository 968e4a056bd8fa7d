/**
 * The bus topics, by logical name. Topics are coarse (one per publishing
 * domain); the message `type` names the event and the `key` (table id, base id,
 * user id) orders it. On the broker each is `<EVENT_TOPIC_PREFIX>.<name>`
 * (`tabula.records` by default): the bus adds the deployment prefix, so code
 * and outbox rows never carry it.
 */
export const topics = {
  records: 'records',
  meta: 'meta',
  auth: 'auth',
  comments: 'comments',
  integrations: 'integrations',
  hooks: 'hooks',
} as const;

/** One of the topic names in {@link topics}. */
export type Topic = (typeof topics)[keyof typeof topics];
