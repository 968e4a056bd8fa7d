import type { Migration } from '@tabula/db';
import { processedEventsMigration } from '@tabula/events';
import { createDeliveryTables, createHookTables } from './001-init.migration';

/** The hooks schema's migrations, in order. */
export const migrations: Migration[] = [
  {
    name: '001_init',
    up: async (db, schema) => {
      await createHookTables(db, schema);
      await createDeliveryTables(db, schema);
    },
  },
  { name: '002_processed_events', up: (db, schema) => processedEventsMigration(db, schema) },
  {
    // The worker's claim query looks only at due pending and expired in-flight
    // rows; finished deliveries are kept for the log retention and must not be scanned.
    name: '003_due_delivery_indexes',
    up: async (db, schema) => {
      await db.raw(`CREATE INDEX deliveries_pending_due_idx ON ??.deliveries (next_attempt_at) WHERE status = 'pending'`, [schema]);
      await db.raw(`CREATE INDEX deliveries_inflight_idx ON ??.deliveries (locked_until) WHERE status = 'delivering'`, [schema]);
    },
  },
  {
    // A delivery attempt joins the trace of the event that scheduled it.
    name: '004_delivery_trace_context',
    up: async (db, schema) => {
      await db.schema.withSchema(schema).alterTable('deliveries', (t) => { t.jsonb('trace_context'); });
    },
  },
];
