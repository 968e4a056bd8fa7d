import type { Migration } from '@tabula/db';
import { outboxMigration, outboxPayloadCompression } from '@tabula/events';

/**
 * `<schema>.pb_len_delimited(tag, bytes)`: one length-delimited protobuf field
 * (tag byte, varint length, bytes). Lets one INSERT … RETURNING statement build
 * its own outbox payload: the event encoded without `rows_json` in JS, plus the
 * rows' JSON appended in SQL (protobuf merges concatenated encodings).
 */
async function protobufFunctions(db: Parameters<Migration['up']>[0], schema: string): Promise<void> {
  await db.raw(`create or replace function ??.pb_len_delimited(tag int, body bytea) returns bytea
    language plpgsql immutable strict as $$
    declare
      n bigint := length(body);
      head bytea := set_byte('\\x00'::bytea, 0, tag);
    begin
      loop
        if n < 128 then
          return head || set_byte('\\x00'::bytea, 0, n::int) || body;
        end if;
        head := head || set_byte('\\x00'::bytea, 0, ((n & 127) | 128)::int);
        n := n >> 7;
      end loop;
    end $$`, [schema]);
}

/**
 * The data schema's migrations, in order. The service owns no tables but its
 * outbox (plus, created on demand, one `nc_order` sequence per table: order-sequence.ts);
 * user tables are DDL of the meta service.
 */
export const migrations: Migration[] = [
  { name: '001_outbox', up: (db, schema) => outboxMigration(db, schema) },
  { name: '002_protobuf_functions', up: protobufFunctions },
  // A bulk write's outbox payload carries all its rows (hundreds of kB): lz4, not pglz.
  { name: '003_outbox_payload_lz4', up: async (db, schema) => { await outboxPayloadCompression(db, schema); } },
];
