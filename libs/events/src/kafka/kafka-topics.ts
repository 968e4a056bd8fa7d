import type { Admin, ITopicConfig } from 'kafkajs';
import type { EventLogger, KafkaTopicOptions } from '../bus-options';

/**
 * Creates the bus's topics explicitly, with their partitions, replication
 * factor and min.insync.replicas, before the first publish or subscribe on
 * them (and at start-up through `ensureTopics`), so no topic is ever born of
 * the broker's auto-create defaults. A topic seen to exist is remembered; two
 * processes creating the same topic at once both succeed.
 */
export class KafkaTopics {
  private readonly ensured = new Map<string, Promise<void>>();

  /**
   * @param quietAdmin an admin client that logs nothing: creation races between
   * replicas and polls of partitions whose leaders are not ready yet are expected
   */
  constructor(
    private readonly quietAdmin: () => Promise<Admin>,
    private readonly options: KafkaTopicOptions,
    private readonly logger: EventLogger,
  ) {}

  /** Resolves once every topic exists; with `create: false`, throws naming the missing ones. */
  async ensure(topics: string[]): Promise<void> {
    const missing = [...new Set(topics)].filter((topic) => !this.ensured.has(topic));
    if (missing.length) {
      const work = this.create(missing);
      for (const topic of missing) this.ensured.set(topic, work);
      // A failure is not remembered: the next publish or subscribe tries again.
      work.catch(() => missing.forEach((topic) => this.ensured.get(topic) === work && this.ensured.delete(topic)));
    }
    await Promise.all(topics.map((topic) => this.ensured.get(topic)));
  }

  private async create(topics: string[]): Promise<void> {
    // The quiet client: replicas starting together race to create the same topics, and kafkajs
    // would log the losers' TOPIC_ALREADY_EXISTS answers as errors (createTopics resolves false for them).
    const admin = await this.quietAdmin();
    const existing = new Set(await admin.listTopics());
    const absent = topics.filter((topic) => !existing.has(topic));
    if (absent.length && !this.options.create) {
      throw new Error(`kafka: topics ${absent.join(', ')} do not exist and KAFKA_TOPIC_CREATE=false (provision them first)`);
    }
    if (absent.length) {
      const settings = await this.settings(admin);
      await admin.createTopics({ waitForLeaders: true, topics: absent.map((topic) => ({ topic, ...settings })) });
      this.logger.info({ topics: absent, ...settings }, 'kafka topics created');
    }
    await this.leadersReady(topics);
  }

  /**
   * Waits until every partition's leader answers offset requests. A broker
   * lists a new partition's leader a moment before that leader serves it, and
   * consumers joining in that moment (another process may have just created
   * the topic) would log NOT_LEADER errors while kafkajs retries.
   */
  private async leadersReady(topics: string[], timeoutMs = 15_000): Promise<void> {
    const admin = await this.quietAdmin();
    const deadline = Date.now() + timeoutMs;
    for (const topic of topics) {
      for (;;) {
        try {
          await admin.fetchTopicOffsets(topic);
          break;
        } catch (error) {
          if (Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    }
  }

  /** Partitions, replication factor and configs of a new topic (defaults from the cluster's size). */
  private async settings(admin: Admin): Promise<Omit<ITopicConfig, 'topic'>> {
    const { partitions, retentionMs } = this.options;
    let { replicationFactor, minInsyncReplicas } = this.options;
    if (replicationFactor === undefined) replicationFactor = Math.min(3, (await admin.describeCluster()).brokers.length);
    minInsyncReplicas ??= replicationFactor >= 3 ? 2 : 1;
    const configEntries = [{ name: 'min.insync.replicas', value: String(minInsyncReplicas) }];
    if (retentionMs !== undefined) configEntries.push({ name: 'retention.ms', value: String(retentionMs) });
    return { numPartitions: partitions, replicationFactor, configEntries };
  }
}
