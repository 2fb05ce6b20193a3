import { EventId, type Delivery, type Event } from "@cloudcost/api/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { ServiceError } from "../errors";
import { redeliverWebhook } from "../service/redeliver-webhook";
import { fieldOf } from "../validation";
import { html, type SafeHtml } from "../web/html";
import { csrfField, sendPortalPage, signedInPage, type PortalView } from "./portal-page";
import { pagedListPage } from "./paged-list-page";
import { problemPage } from "./problem-page";

const PATH = "/portal/events";
const TITLE = "Events";
/** Events per page of the list (the API's default page size). */
const PAGE_SIZE = 50;

/** What happened, in one line: which alert reached which threshold, or which report went to whom. */
export function eventSummary(e: Event): string {
  if (e.type === "budget_alert.threshold_crossed") {
    const d = e.data;
    return `${d.alertName}: ${d.threshold.percent}% (${d.threshold.basis}) of ${d.amount} ${d.currency} reached, spend ${d.spend} (${d.periodStart} – ${d.periodEnd})`;
  }
  const d = e.data;
  return `${d.reportName}: ${d.report} report (${d.format}) for ${d.from} – ${d.to} to ${d.recipients.join(", ")}`;
}

const eventLink = (id: string): string => `${PATH}/${encodeURIComponent(id)}`;

function listBody(ctx: SandboxContext, view: PortalView, cursor: string | undefined): SafeHtml {
  const page = ctx.events.page(view.user.orgId, { limit: PAGE_SIZE, cursor });
  const older = page.nextCursor ? html`<p><a href="${PATH}?cursor=${encodeURIComponent(page.nextCursor)}">Older events</a></p>` : "";
  if (page.items.length === 0)
    return html`<p>No events${cursor ? " older than these" : ""}. Budget alerts record one when spend reaches a threshold; scheduled reports, one per delivery.</p>`;
  return html`<table><thead><tr><th>Event</th><th>Type</th><th>When (organization clock)</th><th>What</th></tr></thead><tbody>${page.items.map(
    (e) =>
      html`<tr><td><a href="${eventLink(e.id)}"><code>${e.id}</code></a></td><td>${e.type}</td><td>${e.createdAt}</td><td>${eventSummary(e)}</td></tr>`,
  )}</tbody></table>${older}`;
}

/** One attempt in words: the receiver's answer, or for e-mail without a relay, that the outbox captured it. */
function attemptText(d: Delivery, a: Delivery["attempts"][number]): string {
  if (d.channel === "email" && a.statusCode === null && !a.error) return `${a.at}: captured in the outbox`;
  const answer = a.statusCode === null ? "no response" : `HTTP ${a.statusCode}`;
  return `${a.at}: ${answer}, ${a.durationMs} ms${a.error ? ` — ${a.error}` : ""}`;
}

function attemptsCell(d: Delivery): SafeHtml {
  if (d.attempts.length === 0) return html`none yet`;
  return html`<ol>${d.attempts.map((a) => html`<li>${attemptText(d, a)}</li>`)}</ol>`;
}

function detailBody(view: PortalView, event: Event, deliveries: readonly Delivery[], notice?: string): SafeHtml {
  const hasWebhook = deliveries.some((d) => d.channel === "webhook");
  const redeliver = hasWebhook
    ? html`<form method="post" action="${eventLink(event.id)}/redeliver">${csrfField(view)}<button type="submit">Redeliver webhook</button></form>
<p>Sends the event's webhook once more, with the same <code>webhook-id</code>.</p>`
    : "";
  const rows = deliveries.map(
    (d) => html`<tr><td>${d.channel}</td><td><code>${d.target}</code></td><td>${d.status}</td><td>${attemptsCell(d)}</td></tr>`,
  );
  return html`${notice ? html`<p role="status">${notice}</p>` : ""}<p><a href="${PATH}">All events</a></p>
<dl><dt>ID</dt><dd><code>${event.id}</code></dd><dt>Type</dt><dd>${event.type}</dd><dt>When (organization clock)</dt><dd>${event.createdAt}</dd><dt>What</dt><dd>${eventSummary(event)}</dd></dl>
<h2>Payload</h2><pre>${JSON.stringify(event, null, 2)}</pre>
<h2>Deliveries</h2>${rows.length ? html`<table><thead><tr><th>Channel</th><th>Target</th><th>Status</th><th>Attempts</th></tr></thead><tbody>${rows}</tbody></table>` : html`<p>No deliveries: the event had no recipients and no webhook.</p>`}
${redeliver}`;
}

/** The event of the URL, or undefined when the ID is malformed or not one of the organization's events. */
function eventOf(ctx: SandboxContext, view: PortalView, request: FastifyRequest): Event | undefined {
  const id = EventId.safeParse(fieldOf(request.params, "eventId"));
  if (!id.success) return undefined;
  try {
    return ctx.events.require(view.user.orgId, id.data);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return undefined;
    throw error;
  }
}

function sendDetail(ctx: SandboxContext, view: PortalView, reply: FastifyReply, event: Event, notice?: string, status = 200): FastifyReply {
  return sendPortalPage(reply, view, PATH, `Event ${event.type}`, detailBody(view, event, ctx.deliveries.list(event.id), notice), status);
}

/**
 * Events: the organization's events newest first, each with its deliveries (one per e-mail recipient and
 * per webhook) and every attempt, and a Redeliver button (a CSRF-protected POST, like every portal form)
 * that does what `POST /events/{eventId}/redeliver` does.
 */
export function registerEventsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  app.get(PATH, pagedListPage(ctx, stores, { path: PATH, title: TITLE, noun: "events", body: listBody }));
  app.get(
    `${PATH}/:eventId`,
    signedInPage(ctx, stores, (view, request, reply) => {
      const event = eventOf(ctx, view, request);
      if (!event) return problemPage(reply, view, PATH, 404, "No such event in this organization.");
      const redelivered = fieldOf(request.query, "redelivered") === "1";
      return sendDetail(ctx, view, reply, event, redelivered ? "One more webhook attempt is queued; reload to see it." : undefined);
    }),
  );
  app.post(
    `${PATH}/:eventId/redeliver`,
    { preHandler: app.csrfProtection },
    signedInPage(ctx, stores, (view, request, reply) => {
      const event = eventOf(ctx, view, request);
      if (!event) return problemPage(reply, view, PATH, 404, "No such event in this organization.");
      try {
        redeliverWebhook(ctx, view.user.orgId, event.id);
      } catch (error) {
        if (!(error instanceof ServiceError) || error.status >= 500) throw error;
        return sendDetail(ctx, view, reply, event, error.message, error.status);
      }
      // Post/Redirect/Get: a reload of the detail page does not send the webhook again.
      return reply.redirect(`${eventLink(event.id)}?redelivered=1`, 303);
    }),
  );
}
