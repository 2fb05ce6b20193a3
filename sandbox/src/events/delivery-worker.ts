import type { DeliveryAttempt } from "@cloudcost/api/contract";
import type { SandboxContext } from "../service/context";
import { retryBusy, writeTransaction } from "../store/connection";
import type { DueDelivery } from "../store/deliveries";
import type { EmailRelay } from "./email-relay";
import { postWebhook, signedHeaders, type AttemptOutcome } from "./webhook-sender";

/** How often the worker looks for due deliveries (another process may have added some). */
const POLL_MS = 250;
/** How long stopping waits for attempts in flight. */
const STOP_GRACE_MS = 1_000;
/** Deliveries one pass claims at most. */
const BATCH = 16;

export interface DeliveryWorkerOptions {
  backoffMs: number;
  timeoutMs: number;
  relay?: EmailRelay;
}

/**
 * Sends due deliveries: webhooks (signed, bounded) and, with `--smtp-url`, relayed e-mail. A failed attempt
 * is retried after `backoffMs`, doubling each time, up to the delivery's attempts. State is in the database
 * (store/deliveries.ts), so a restart resumes pending retries and two processes share the work.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly ctx: SandboxContext,
    private readonly options: DeliveryWorkerOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.nudge(), POLL_MS);
    this.timer.unref();
    this.nudge();
  }

  /** Looks for due deliveries now (after an event was recorded or a redelivery queued). */
  nudge(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      const nowMs = Date.now();
      // A read first: the write lock is taken only when something is due (the folder is shared with the CLI and other processes).
      const due0 = this.ctx.deliveries.nextDueMs();
      if (due0 === undefined || due0 > nowMs) return;
      // The claim lasts one attempt plus a margin; a crashed process's claims run out and are taken over.
      const due = writeTransaction(this.ctx.db, () => this.ctx.deliveries.claimDue(nowMs, this.options.timeoutMs + 5_000, BATCH));
      for (const delivery of due) {
        const work = this.attempt(delivery).finally(() => this.inFlight.delete(work));
        this.inFlight.add(work);
      }
    } catch (error) {
      console.error(`warning: delivery pass failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = false;
    }
  }

  /**
   * Stops looking and waits a moment for the attempts in flight. One still running after that is not
   * recorded: its claim runs out and the next `serve` sends it again (same `webhook-id`, so receivers can
   * deduplicate) — delivery is at least once.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)));
    await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
    clearTimeout(timer);
  }

  private async attempt(delivery: DueDelivery): Promise<void> {
    const at = new Date();
    const outcome = await this.send(delivery, at);
    const attempt: DeliveryAttempt = {
      at: at.toISOString(),
      statusCode: outcome.statusCode,
      durationMs: outcome.durationMs,
      ...(outcome.error === undefined ? {} : { error: outcome.error }),
    };
    const ok = outcome.error === undefined;
    // Exponential backoff: the n-th retry waits backoff · 2^(n-1) after the failed attempt.
    const retryAtMs = Date.now() + this.options.backoffMs * 2 ** delivery.attempts.length;
    if (!this.ctx.db.open) return;
    writeTransaction(this.ctx.db, () => this.ctx.deliveries.record(delivery.seq, attempt, ok, retryAtMs));
  }

  private send(delivery: DueDelivery, at: Date): Promise<AttemptOutcome> {
    if (delivery.channel === "email") {
      const message = this.ctx.outbox.ofEvent(delivery.eventId, delivery.target);
      if (!this.options.relay || !message) return Promise.resolve({ statusCode: null, durationMs: 0 });
      return this.options.relay.send(message);
    }
    const body = this.ctx.events.body(delivery.orgId, delivery.eventId);
    const secrets = retryBusy(() => this.ctx.signingSecrets.signingKeys(delivery.orgId, at.getTime()));
    return postWebhook(delivery.target, body, signedHeaders(delivery.eventId, body, secrets, at), this.options.timeoutMs);
  }
}
