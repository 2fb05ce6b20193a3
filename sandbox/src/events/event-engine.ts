import type { ScheduledReport } from "@cloudcost/api/contract";
import type { EngineOptions, SandboxContext } from "../service/context";
import { sql } from "../store/statements";
import { GROUP_REFERENCING_TABLES } from "../store/tables";
import { DeliveryWorker } from "./delivery-worker";
import { EmailRelay } from "./email-relay";
import { dueReportRuns } from "./report-runner";
import { dueAlertJudgments } from "./threshold-evaluator";
import { walkTimeline, type Evaluation } from "./timeline";

export type { Evaluation } from "./timeline";

/** `serve --evaluate-every-ms`: the evaluation timer's period. */
export const DEFAULT_EVALUATE_EVERY_MS = 60_000;
/** `serve --webhook-backoff-ms`: the first retry's delay (then 2×, 4×, 8×). */
export const DEFAULT_WEBHOOK_BACKOFF_MS = 5_000;
/** `serve --webhook-timeout-ms`: the bound on one webhook attempt. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

export function engineOptions(ctx: SandboxContext): EngineOptions {
  const given = ctx.config.events ?? {};
  return {
    evaluateEveryMs: given.evaluateEveryMs ?? DEFAULT_EVALUATE_EVERY_MS,
    webhookBackoffMs: given.webhookBackoffMs ?? DEFAULT_WEBHOOK_BACKOFF_MS,
    webhookTimeoutMs: given.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    smtpUrl: given.smtpUrl,
  };
}

/**
 * Evaluates one organization up to its clock's now: every enabled alert (also at each period end after
 * `from`, when the clock stepped over some) and every report run due, all in the order they fell due
 * (timeline.ts). Safe to run in several processes at once: events are recorded once per dedupe key
 * (store/events.ts).
 */
export async function evaluateOrganization(ctx: SandboxContext, orgId: string, from?: Date): Promise<Evaluation> {
  const reading = ctx.clocks.read(orgId);
  const to = reading.now;
  // A report first seen on a running clock starts at its creation (not earlier than a short look-back, so an
  // old data folder does not deliver a backlog); on a set clock, clock changes anchor reports first (controls.ts).
  const lookBackMs = Math.max(2 * engineOptions(ctx).evaluateEveryMs, 60_000);
  const anchorFor = (r: ScheduledReport): number =>
    reading.frozen ? to.getTime() : Math.min(to.getTime(), Math.max(Date.parse(r.createdAt), to.getTime() - lookBackMs));
  return walkTimeline([...dueAlertJudgments(ctx, orgId, from ?? to, to), ...dueReportRuns(ctx, orgId, to, anchorFor)]);
}

/**
 * The events engine of one `serve` process: evaluation on a timer and on demand (one at a time in this
 * process), and the delivery worker. Everything it knows is in the database.
 */
export class EventEngine {
  private readonly options: EngineOptions;
  private readonly worker: DeliveryWorker;
  private readonly relay: EmailRelay | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** When this process last evaluated each running-clock organization (period ends in between are judged too). */
  private readonly lastEvaluated = new Map<string, Date>();

  constructor(private readonly ctx: SandboxContext) {
    this.options = engineOptions(ctx);
    this.relay =
      this.options.smtpUrl === undefined ? undefined : new EmailRelay(ctx.db, this.options.smtpUrl, this.options.webhookTimeoutMs);
    this.worker = new DeliveryWorker(ctx, {
      backoffMs: this.options.webhookBackoffMs,
      timeoutMs: this.options.webhookTimeoutMs,
      relay: this.relay,
    });
  }

  start(): void {
    this.worker.start();
    this.timer = setInterval(() => void this.evaluateAll(), this.options.evaluateEveryMs);
    this.timer.unref();
    void this.evaluateAll();
  }

  /** Evaluates one organization after whatever evaluation this process is running; the worker then looks for new deliveries. */
  readonly evaluate = (orgId: string, from?: Date): Promise<Evaluation> => {
    const run = this.queue.then(async () => {
      const since = from ?? this.lastEvaluated.get(orgId);
      const result = await evaluateOrganization(this.ctx, orgId, since);
      this.lastEvaluated.set(orgId, this.ctx.clocks.now(orgId));
      this.worker.nudge();
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  };

  /** Evaluates soon, in the background (after a spend injection); a failure is logged. */
  readonly evaluateSoon = (orgId: string): void => {
    this.evaluate(orgId).catch((error: unknown) => this.warn(error));
  };

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.queue;
    await this.worker.stop();
    this.relay?.close();
  }

  private async evaluateAll(): Promise<void> {
    if (this.stopped) return;
    const orgs = sql(
      this.ctx.db,
      `SELECT DISTINCT org_id FROM ${GROUP_REFERENCING_TABLES.alert} UNION SELECT DISTINCT org_id FROM ${GROUP_REFERENCING_TABLES.report}`,
    ).all() as { org_id: string }[];
    for (const { org_id } of orgs) {
      if (this.stopped) return;
      await this.evaluate(org_id).catch((error: unknown) => this.warn(error));
    }
  }

  private warn(error: unknown): void {
    if (this.stopped) return;
    console.error(`warning: event evaluation failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
