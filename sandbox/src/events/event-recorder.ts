import type { Event } from "@cloudcost/api/contract";
import type { SandboxContext } from "../service/context";
import { writeTransaction } from "../store/connection";
import { WEBHOOK_ATTEMPTS } from "../store/deliveries";
import type { DedupeKey } from "../store/events";
import type { Attachment } from "../store/outbox";

/** An e-mail an event sends to one recipient. */
export interface Email {
  to: string;
  subject: string;
  text: string;
  attachments: readonly Attachment[];
}

/** Everything one event causes, recorded together or not at all. */
export interface EventPlan {
  orgId: string;
  /** What caused the event; a second plan with the same key records nothing (store/events.ts). */
  dedupeKey: DedupeKey;
  event: Event;
  emails: readonly Email[];
  webhookUrl: string | null;
  /** Runs in the same transaction whether or not this plan recorded the event (a report's anchor moves either way). */
  always?: () => void;
}

/**
 * Records an event with its captured messages and its deliveries in one write transaction, once per
 * dedupe key. E-mail is captured in the outbox (a settled delivery), or pending when `--smtp-url` relays
 * it; each webhook is a pending delivery due now. True when this call recorded the event.
 */
export function recordEvent(ctx: SandboxContext, plan: EventPlan): boolean {
  return writeTransaction(ctx.db, () => {
    plan.always?.();
    if (!ctx.events.insertOnce(plan.orgId, plan.dedupeKey, plan.event)) return false;
    const nowMs = Date.now();
    const relay = ctx.config.events?.smtpUrl !== undefined;
    for (const email of plan.emails) {
      ctx.outbox.add(plan.orgId, { eventId: plan.event.id, ...email });
      ctx.deliveries.add(
        plan.orgId,
        plan.event.id,
        "email",
        email.to,
        relay
          ? { dueMs: nowMs, maxAttempts: WEBHOOK_ATTEMPTS }
          : { settled: { at: new Date(nowMs).toISOString(), statusCode: null, durationMs: 0 } },
      );
    }
    if (plan.webhookUrl !== null)
      ctx.deliveries.add(plan.orgId, plan.event.id, "webhook", plan.webhookUrl, { dueMs: nowMs, maxAttempts: WEBHOOK_ATTEMPTS });
    return true;
  });
}
