import type { Event, Page } from "@cloudcost/api/contract";
import type { SandboxContext } from "../service/context";
import type { ClockState, OutboxMessage } from "../events/controls-contract";
import { changeClock, clockState, injectSpend } from "../events/controls";
import { evaluateOrganization } from "../events/event-engine";
import type { Organization } from "../store/organizations";
import { integer, required, type Output, type Values } from "./arguments";
import { clockAdvance, clockSet, eventType, spendInjection } from "./event-arguments";
import { withContext, withContextAsync } from "./with-context";

// The event commands of issue 15: the sandbox controls (`/sandbox/v1` clock, spend, outbox) and the event
// list, on the data folder directly. They call the same service functions as the HTTP routes
// (events/controls.ts, events/event-engine.ts, the stores), so a command beside a running `serve` has the
// effect the API call would have: events are recorded once per cause whichever process evaluates first,
// and the webhooks they queue are sent by `serve`'s delivery worker (it polls the shared database).

const json = (out: Output, value: unknown) => out(JSON.stringify(value));

/** Lists are printed newest first, at most `--limit` items (default 100). */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

function org(ctx: SandboxContext, values: Values): Organization {
  return ctx.orgs.require(required(values, "org"));
}

/** Up to `limit` items of a newest-first list, page by page; `more` when items were left out. */
function collect<T>(limit: number, read: (cursor: string | undefined, size: number) => Page<T>): { items: T[]; more: boolean } {
  const items: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = read(cursor, Math.min(200, limit - items.length));
    items.push(...page.items);
    if (page.nextCursor === null) return { items, more: false };
    if (items.length >= limit) return { items, more: true };
    cursor = page.nextCursor;
  }
}

function clockLine(orgName: string, clock: ClockState): string {
  return `${clock.now} (${clock.frozen ? "set: frozen until moved again" : "real time"}) in organization ${orgName}`;
}

/** `clock show --org NAME [--json]` */
export function clockShow(values: Values, out: Output): void {
  const { name, clock } = withContext(values, (ctx) => {
    const o = org(ctx, values);
    return { name: o.name, clock: clockState(ctx, o.id) };
  });
  if (values.json) json(out, clock);
  else out(clockLine(name, clock));
}

/** `clock set <ISO> --org NAME [--json]` and `clock advance <duration> …`: evaluations due up to the new time run before it returns. */
export async function clockChange(values: Values, how: "set" | "advance", text: string, out: Output): Promise<void> {
  const change = how === "set" ? clockSet(text) : clockAdvance(text);
  const { name, clock } = await withContextAsync(values, async (ctx) => {
    const o = org(ctx, values);
    const evaluate = (orgId: string, from: Date) => evaluateOrganization(ctx, orgId, from);
    return { name: o.name, clock: await changeClock(ctx, o.id, change, evaluate) };
  });
  if (values.json) json(out, clock);
  else out(`clock ${how === "set" ? "set" : "advanced"}: ${clockLine(name, clock)}`);
}

/**
 * `spend add --org NAME --account ID --service NAME --amount N [--json]`: returns once the crossings the
 * spend causes are evaluated (the API evaluates them in the background), so the next command sees them.
 */
export async function spendAdd(values: Values, out: Output): Promise<void> {
  const injection = spendInjection(values);
  const added = await withContextAsync(values, async (ctx) => {
    const orgId = org(ctx, values).id;
    const recorded = injectSpend(ctx, orgId, injection);
    await evaluateOrganization(ctx, orgId);
    return recorded;
  });
  if (values.json) json(out, added);
  else
    out(
      `added ${added.amount.toFixed(2)} ${added.currency} of ${added.service} to ${added.provider} account ${added.accountId} on ${added.date}`,
    );
}

function messageLine(m: OutboxMessage): string {
  const files = m.attachments.map((a) => `${a.filename} (${a.size} bytes)`).join(", ");
  return `${m.id}  ${m.createdAt}  to ${m.to}  "${m.subject}"  event ${m.eventId}${files ? `  attachments: ${files}` : ""}`;
}

function moreLine(out: Output, more: boolean, limit: number): void {
  if (more) out(`(older ones left out: at most ${limit} are listed; raise --limit)`);
}

/** `outbox list --org NAME [--limit N] [--json]`: captured e-mail, newest first. */
export function outboxList(values: Values, out: Output): void {
  const limit = integer(values, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
  const { items, more } = withContext(values, (ctx) => {
    const orgId = org(ctx, values).id;
    return collect(limit, (cursor, size) => ctx.outbox.page(orgId, { limit: size, cursor }));
  });
  if (values.json) return json(out, items);
  if (items.length === 0) return out("the outbox is empty");
  items.forEach((m) => out(messageLine(m)));
  moreLine(out, more, limit);
}

function eventLine(e: Event): string {
  if (e.type === "budget_alert.threshold_crossed") {
    const d = e.data;
    return `${e.id}  ${e.createdAt}  ${e.type}  "${d.alertName}" ${d.threshold.percent !== undefined ? `${d.threshold.percent}%` : `${d.thresholdAmount} ${d.currency}`} ${d.threshold.basis}: spend ${d.spend} of ${d.amount} ${d.currency}`;
  }
  const d = e.data;
  return `${e.id}  ${e.createdAt}  ${e.type}  "${d.reportName}" ${d.report} ${d.format} ${d.from}..${d.to} to ${d.recipients.length ? d.recipients.join(", ") : "the webhook only"}`;
}

/** `events list --org NAME [--type T] [--limit N] [--json]`: newest first. */
export function eventsList(values: Values, out: Output): void {
  const type = eventType(values);
  const limit = integer(values, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
  const { items, more } = withContext(values, (ctx) => {
    const orgId = org(ctx, values).id;
    return collect(limit, (cursor, size) => ctx.events.page(orgId, { limit: size, cursor, type }));
  });
  if (values.json) return json(out, items);
  if (items.length === 0) return out(type ? `no ${type} events` : "no events");
  items.forEach((e) => out(eventLine(e)));
  moreLine(out, more, limit);
}
