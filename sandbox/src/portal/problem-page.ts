import type { FastifyReply } from "fastify";
import { html } from "../web/html";
import { sendPortalPage, type PortalView } from "./portal-page";

/**
 * A portal page for what the visitor asked for and cannot have — an ID that is not the organization's
 * (404, the same answer whether it exists elsewhere or not), a malformed link (400) — inside the usual
 * navigation, never the error handler's generic page.
 */
export function problemPage(reply: FastifyReply, view: PortalView, navPath: string, status: 400 | 404, message: string): FastifyReply {
  return sendPortalPage(
    reply,
    view,
    navPath,
    status === 404 ? "Not found" : "Bad request",
    html`<p class="error" role="alert">${message}</p>`,
    status,
  );
}
