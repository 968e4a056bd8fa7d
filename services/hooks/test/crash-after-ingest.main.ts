import { createKnex } from '@tabula/db';
import { Wake, type ClaimedDelivery } from '../src/adapters/wake';
import { recordsConsumer } from '../src/consumers/records.consumer';
import { runBus, runPorts, type RunBus } from './redelivery.fixture';

/**
 * A hooks records consumer that dies by SIGKILL right after its first
 * ingestion has committed (the processed event ids and their deliveries are
 * stored) and before the bus hears back: the consumer calls the wake only
 * once `ingestDeliveries`' statement has returned, and acknowledges (Redis
 * XACK, Kafka offset commit) only once the handler has returned. So the bus
 * still holds the batch as unacknowledged and delivers it again to the next
 * member of the group. Env: DATABASE_URL (the run's database), RUN_BUS, RUN_PREFIX.
 */
class KillAfterCommit extends Wake {
  override room(): number {
    return 0; // everything stored pending: the surviving member's poll sends it
  }
  override overflowed(): void {
    this.die();
  }
  override kick(): void {
    this.die();
  }
  override handOff(_items: ClaimedDelivery[]): void {
    this.die();
  }
  private die(): void {
    process.stdout.write('ingested, killing myself before the ack\n');
    process.kill(process.pid, 'SIGKILL');
  }
}

async function main(): Promise<void> {
  const db = createKnex({ url: process.env.DATABASE_URL as string, poolMax: 2 });
  const bus = runBus(process.env.RUN_BUS as RunBus, process.env.RUN_PREFIX as string, 'hooks-crashing');
  await recordsConsumer.start(runPorts(db, bus, new KillAfterCommit()));
  process.stdout.write('consuming\n');
}

main().catch((err) => {
  process.stderr.write(`${String(err?.stack ?? err)}\n`);
  process.exit(2);
});
