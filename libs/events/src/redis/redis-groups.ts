import type { createClient } from 'redis';
import type { EventLogger } from '../event-bus';
import { ephemeralGroupCreatedAt } from '../namespaced-event-bus';

/** A node-redis client with string replies. */
export type RedisClient = ReturnType<typeof createClient>;

/** XGROUP CREATE ... MKSTREAM on every stream; an existing group (BUSYGROUP) keeps its position. */
export async function ensureGroups(commands: RedisClient, streams: string[], group: string, fromBeginning: boolean): Promise<void> {
  for (const stream of streams) {
    try {
      await commands.xGroupCreate(stream, group, fromBeginning ? '0' : '$', { MKSTREAM: true });
    } catch (error) {
      // Redis reports the condition only as an error code prefix.
      if (!String((error as Error).message).startsWith('BUSYGROUP')) throw error;
    }
  }
}

/** XGROUP DESTROY for an ephemeral group; failures are logged, a leftover group is harmless. */
export async function destroyGroups(commands: RedisClient, streams: string[], group: string, logger: EventLogger): Promise<void> {
  for (const stream of streams) {
    await commands.xGroupDestroy(stream, group).catch((error: unknown) => {
      logger.warn({ err: error, group, stream }, 'could not destroy ephemeral redis consumer group');
    });
  }
}

/**
 * Consumer names are per subscription, so without this every restart would leave
 * one behind. Only a consumer without pending entries is deleted: XGROUP
 * DELCONSUMER drops its pending entries, which would then never be redelivered.
 */
export async function removeConsumerIfIdle(
  commands: RedisClient,
  streams: string[],
  group: string,
  consumer: string,
  logger: EventLogger,
): Promise<void> {
  try {
    for (const stream of streams) {
      const pending = await commands.xPendingRange(stream, group, '-', '+', 1, { consumer });
      if (pending.length === 0) await commands.xGroupDelConsumer(stream, group, consumer);
    }
  } catch (error) {
    logger.warn({ err: error, group, consumer }, 'could not remove redis stream consumer');
  }
}

/** Key an ephemeral group's live subscription keeps refreshed (Redis 7.0 updates a consumer's idle time only on deliveries). */
export function aliveKey(streamPrefix: string, group: string): string {
  return `${streamPrefix}${group}:alive`;
}

/**
 * Destroys the ephemeral groups (name starting with `groupPrefix`) on `streams`
 * that are older than `idleMs` and whose subscription stopped refreshing its
 * alive key: their process died without closing them.
 */
export async function expireEphemeralGroups(
  commands: RedisClient, streamPrefix: string, streams: string[], groupPrefix: string, idleMs: number,
): Promise<string[]> {
  const destroyed = new Set<string>();
  for (const stream of streams) {
    const groups = await commands.xInfoGroups(stream).catch(() => []);
    for (const { name } of groups as Array<{ name: string }>) {
      const created = ephemeralGroupCreatedAt(String(name), groupPrefix);
      if (created === undefined || Date.now() - created < idleMs) continue;
      if (await commands.exists(aliveKey(streamPrefix, String(name)))) continue;
      await commands.xGroupDestroy(stream, String(name));
      destroyed.add(String(name));
    }
  }
  return [...destroyed];
}
