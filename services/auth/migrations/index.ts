import type { Knex } from 'knex';
import type { Migration } from '@tabula/db';
import { outboxMigration, processedEventsMigration } from '@tabula/events';

async function createAccounts(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('users', (t) => {
    t.string('id', 20).primary();
    t.string('email', 255).notNullable().unique();
    t.text('password_hash').notNullable();
    t.string('firstname', 255);
    t.string('lastname', 255);
    t.text('roles').notNullable();
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.string('token_version', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.withSchema(schema).createTable('refresh_tokens', (t) => {
    t.string('hash', 64).primary();
    t.string('user_id', 20).notNullable().references('id').inTable(`${schema}.users`).onDelete('CASCADE');
    t.string('family_id', 64).notNullable().index();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.string('replaced_by', 64);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['user_id']);
  });
  await db.schema.withSchema(schema).createTable('password_resets', (t) => {
    t.string('hash', 64).primary();
    t.string('user_id', 20).notNullable().references('id').inTable(`${schema}.users`).onDelete('CASCADE');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

async function createAccess(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('api_tokens', (t) => {
    t.string('id', 20).primary();
    t.string('hash', 64).notNullable().unique();
    t.string('description', 255);
    t.string('user_id', 20).notNullable().references('id').inTable(`${schema}.users`).onDelete('CASCADE');
    t.string('base_id', 64);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['user_id', 'base_id']);
  });
  await db.schema.withSchema(schema).createTable('base_members', (t) => {
    t.string('base_id', 64).notNullable();
    t.string('user_id', 20).notNullable().references('id').inTable(`${schema}.users`).onDelete('CASCADE');
    t.string('role', 32).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['base_id', 'user_id']);
  });
  await db.schema.withSchema(schema).createTable('mail_outbox', (t) => {
    t.bigIncrements('id').primary();
    t.string('to', 255).notNullable();
    t.string('subject', 255).notNullable();
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('sent_at', { useTz: true });
  });
}

/** Invitations of e-mails with no account yet (SVC_SIGNUP=invite), accepted at their sign-up. */
async function createInvitations(db: Knex, schema: string): Promise<void> {
  await db.schema.withSchema(schema).createTable('invitations', (t) => {
    t.string('email', 255).notNullable();
    t.string('base_id', 64).notNullable().index();
    t.string('role', 32).notNullable();
    t.string('invited_by', 20);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['email', 'base_id']);
  });
}

/** The auth schema's migrations, in order. */
export const migrations: Migration[] = [
  {
    name: '001_init',
    up: async (db, schema) => {
      await createAccounts(db, schema);
      await createAccess(db, schema);
    },
  },
  { name: '002_outbox', up: (db, schema) => outboxMigration(db, schema) },
  { name: '003_processed_events', up: (db, schema) => processedEventsMigration(db, schema) },
  { name: '004_invitations', up: (db, schema) => createInvitations(db, schema) },
];
