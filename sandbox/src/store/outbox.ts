import type { Page, PageQuery } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { newId } from "./ids";
import { notFound } from "../errors";
import { newestPageOfTable } from "./paging";
import { sql } from "./statements";

/** What a message says about an attachment (`GET /sandbox/v1/outbox`). */
export interface AttachmentInfo {
  filename: string;
  contentType: string;
  size: number;
}

/** A captured message as `GET /sandbox/v1/outbox` lists it (schema: events/controls-contract.ts). */
export interface OutboxMessage {
  id: string;
  eventId: string;
  to: string;
  subject: string;
  text: string;
  attachments: AttachmentInfo[];
  createdAt: string;
}

/** An attachment as it is captured: its description and its bytes. */
export interface Attachment extends AttachmentInfo {
  bytes: Buffer;
}

/** A message to capture: one per recipient of an event. */
export interface NewMessage {
  eventId: string;
  to: string;
  subject: string;
  text: string;
  attachments: readonly Attachment[];
}

interface Row {
  seq: number;
  id: string;
  event_id: string;
  recipient: string;
  subject: string;
  text: string;
  attachments: string;
  created_at: string;
}

const view = (r: Row): OutboxMessage => ({
  id: r.id,
  eventId: r.event_id,
  to: r.recipient,
  subject: r.subject,
  text: r.text,
  attachments: JSON.parse(r.attachments) as AttachmentInfo[],
  createdAt: r.created_at,
});

/** Captured e-mail (the sandbox's outbox, like Mailpit): nothing leaves the machine unless `serve --smtp-url` relays it too. */
export class Outbox {
  constructor(private readonly db: Db) {}

  add(orgId: string, message: NewMessage): OutboxMessage {
    const id = newId("msg");
    const infos: AttachmentInfo[] = message.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.bytes.length,
    }));
    sql(
      this.db,
      "INSERT INTO outbox (id, org_id, event_id, recipient, subject, text, attachments, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(id, orgId, message.eventId, message.to, message.subject, message.text, JSON.stringify(infos), new Date().toISOString());
    message.attachments.forEach((a, n) =>
      sql(this.db, "INSERT INTO outbox_attachments (message_id, n, bytes) VALUES (?, ?, ?)").run(id, n, a.bytes),
    );
    return this.require(orgId, id);
  }

  /** Newest first. */
  page(orgId: string, q: PageQuery): Page<OutboxMessage> {
    return newestPageOfTable<Row, OutboxMessage>({ db: this.db, list: "outbox", orgId }, "outbox", q, view);
  }

  /** The message of one event to one recipient (the e-mail relay reads it). */
  ofEvent(eventId: string, recipient: string): OutboxMessage | undefined {
    const row = sql(this.db, "SELECT * FROM outbox WHERE event_id = ? AND recipient = ? ORDER BY seq LIMIT 1").get(eventId, recipient) as
      Row | undefined;
    return row ? view(row) : undefined;
  }

  require(orgId: string, messageId: string): OutboxMessage {
    const row = sql(this.db, "SELECT * FROM outbox WHERE id = ? AND org_id = ?").get(messageId, orgId) as Row | undefined;
    if (!row) throw notFound(`No message ${messageId} in this organization's outbox.`);
    return view(row);
  }

  /** Attachment `n` (from 0) of a message with its bytes; 404 for another organization's message or a missing index. */
  attachment(orgId: string, messageId: string, n: number): Attachment {
    const info = this.require(orgId, messageId).attachments[n];
    const row = sql(this.db, "SELECT bytes FROM outbox_attachments WHERE message_id = ? AND n = ?").get(messageId, n) as
      { bytes: Buffer } | undefined;
    if (!info || !row) throw notFound(`Message ${messageId} has no attachment ${n}.`);
    return { ...info, bytes: row.bytes };
  }

  /** Empties the organization's outbox (the delivery log of its events stays). */
  clear(orgId: string): number {
    return sql(this.db, "DELETE FROM outbox WHERE org_id = ?").run(orgId).changes;
  }
}
