import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { ServiceError } from "../errors";
import { AttachmentParams, type OutboxMessage } from "../events/controls-contract";
import { html, type SafeHtml } from "../web/html";
import { signedInPage, type PortalView } from "./portal-page";
import { pagedListPage } from "./paged-list-page";
import { problemPage } from "./problem-page";

const PATH = "/portal/outbox";
const TITLE = "Outbox";
/** Messages per page of the list (the API's default page size). */
const PAGE_SIZE = 50;

const attachmentLink = (m: OutboxMessage, n: number): string => `${PATH}/${encodeURIComponent(m.id)}/attachments/${n}`;

function messageRow(m: OutboxMessage): SafeHtml {
  const files = m.attachments.map(
    (a, n) =>
      html`<li><a href="${attachmentLink(m, n)}" download="${a.filename}">${a.filename}</a> (${a.contentType}, ${a.size} bytes)</li>`,
  );
  return html`<tr><td>${m.createdAt}</td><td>${m.to}</td><td><details><summary>${m.subject}</summary><pre>${m.text}</pre></details></td>
<td><a href="/portal/events/${encodeURIComponent(m.eventId)}"><code>${m.eventId}</code></a></td><td>${files.length ? html`<ul>${files}</ul>` : "none"}</td></tr>`;
}

function listBody(ctx: SandboxContext, view: PortalView, cursor: string | undefined): SafeHtml {
  const page = ctx.outbox.page(view.user.orgId, { limit: PAGE_SIZE, cursor });
  const older = page.nextCursor ? html`<p><a href="${PATH}?cursor=${encodeURIComponent(page.nextCursor)}">Older messages</a></p>` : "";
  const intro = html`<p>E-mail the sandbox captured instead of sending (one message per recipient of an event). Nothing leaves the machine unless <code>serve --smtp-url</code> relays it too.</p>`;
  if (page.items.length === 0) return html`${intro}<p>No messages${cursor ? " older than these" : ""}.</p>`;
  return html`${intro}<table><thead><tr><th>Captured</th><th>To</th><th>Subject and text</th><th>Event</th><th>Attachments</th></tr></thead><tbody>${page.items.map(messageRow)}</tbody></table>${older}`;
}

/**
 * RFC 6266 `Content-Disposition` for a download: an ASCII fallback name (anything else becomes `_`) and the
 * real name as RFC 8187 `filename*`, so no quote, CR or LF of a stored name can reach the header.
 */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Outbox: the organization's captured e-mail, newest first, with each attachment downloadable (CSV, PDF). */
export function registerOutboxPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  app.get(PATH, pagedListPage(ctx, stores, { path: PATH, title: TITLE, noun: "the outbox", body: listBody }));
  app.get(
    `${PATH}/:messageId/attachments/:n`,
    signedInPage(ctx, stores, (view, request, reply) => {
      const params = AttachmentParams.safeParse(request.params);
      if (!params.success) return problemPage(reply, view, PATH, 404, "No such attachment in this organization's outbox.");
      let attachment;
      try {
        attachment = ctx.outbox.attachment(view.user.orgId, params.data.messageId, params.data.n);
      } catch (error) {
        if (error instanceof ServiceError && error.status === 404)
          return problemPage(reply, view, PATH, 404, "No such attachment in this organization's outbox.");
        throw error;
      }
      // The bytes as captured, never rendered here: a download, not sniffed, not cached (it is the organization's cost data).
      return reply
        .type(attachment.contentType)
        .header("content-disposition", attachmentDisposition(attachment.filename))
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "no-store")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .send(attachment.bytes);
    }),
  );
}
