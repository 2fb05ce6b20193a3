import nodemailer, { type Transporter } from "nodemailer";
import type { Db } from "../store/connection";
import { sql } from "../store/statements";
import type { OutboxMessage } from "../store/outbox";
import type { AttemptOutcome } from "./webhook-sender";

/** The sender address of relayed messages. */
const FROM = "cloudcost sandbox <sandbox@cloudcost.invalid>";

/**
 * `serve --smtp-url smtp://host:port`: every captured message is also sent to that SMTP server (a
 * Mailpit or MailHog the developer runs), with its attachments. The outbox keeps it either way.
 */
export class EmailRelay {
  private readonly transport: Transporter;

  constructor(
    private readonly db: Db,
    smtpUrl: string,
    timeoutMs: number,
  ) {
    this.transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }

  async send(message: OutboxMessage): Promise<AttemptOutcome> {
    const started = Date.now();
    const rows = sql(this.db, "SELECT n, bytes FROM outbox_attachments WHERE message_id = ? ORDER BY n").all(message.id) as {
      n: number;
      bytes: Buffer;
    }[];
    try {
      const info = await this.transport.sendMail({
        from: FROM,
        to: message.to,
        subject: message.subject,
        text: message.text,
        attachments: message.attachments.map((a, i) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: rows.find((r) => r.n === i)?.bytes ?? Buffer.alloc(0),
        })),
      });
      const code = Number(/^(\d{3})/.exec(String((info as { response?: unknown }).response ?? ""))?.[1] ?? 250);
      return { statusCode: code, durationMs: Date.now() - started };
    } catch (error) {
      return { statusCode: null, durationMs: Date.now() - started, error: error instanceof Error ? error.message : String(error) };
    }
  }

  close(): void {
    this.transport.close();
  }
}
