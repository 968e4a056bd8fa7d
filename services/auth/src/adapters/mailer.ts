import nodemailer from 'nodemailer';
import type { Knex } from 'knex';
import type { Logger } from '@tabula/telemetry';
import { AUTH_SCHEMA } from '../repositories/schema';

/** One outgoing e-mail. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): Promise<void>;
}

/** SVC_SMTP_URL set: real SMTP through nodemailer. */
export class SmtpMailer implements Mailer {
  private readonly transport: ReturnType<typeof nodemailer.createTransport>;

  constructor(url: string, private readonly from: string) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/**
 * No SMTP: the message goes to `auth.mail_outbox` (tests and operators read it
 * there). The log line names the recipient, the outbox id and how to read the
 * message — never its body, which holds a live reset link: logs are shipped
 * and kept, and a terminal is often shared or recorded.
 */
export class OutboxMailer implements Mailer {
  constructor(private readonly db: Knex, private readonly logger: Logger) {}

  async send(mail: Mail): Promise<void> {
    const [row] = await this.db.withSchema(AUTH_SCHEMA).table('mail_outbox')
      .insert({ to: mail.to, subject: mail.subject, body: mail.text }).returning('id');
    const id = (row as { id: string | number }).id;
    const read = `SELECT body FROM ${AUTH_SCHEMA}.mail_outbox WHERE id = ${Number(id)}`;
    this.logger.info({ to: mail.to, subject: mail.subject, outboxId: id, read },
      `mail written to ${AUTH_SCHEMA}.mail_outbox (SVC_SMTP_URL unset); read it with: ${read}`);
  }

  async close(): Promise<void> {}
}
