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
 * there). The log line names the recipient and outbox id; the body (which holds
 * the reset link) is logged only when `logBody` is set — standalone, where the
 * log is the local user's own terminal. In cluster mode logs are shipped and
 * kept, so a live reset token must not appear in them.
 */
export class OutboxMailer implements Mailer {
  constructor(private readonly db: Knex, private readonly logger: Logger, private readonly logBody: boolean) {}

  async send(mail: Mail): Promise<void> {
    const [row] = await this.db.withSchema(AUTH_SCHEMA).table('mail_outbox')
      .insert({ to: mail.to, subject: mail.subject, body: mail.text }).returning('id');
    const id = (row as { id: string | number }).id;
    const fields = { to: mail.to, subject: mail.subject, outboxId: id };
    this.logger.info(this.logBody ? { ...fields, body: mail.text } : fields, 'mail written to auth.mail_outbox (SVC_SMTP_URL unset)');
  }

  async close(): Promise<void> {}
}
