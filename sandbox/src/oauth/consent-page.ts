import type { Scope } from "@cloudcost/api/contract";
import type { FastifyReply } from "fastify";
import type { User } from "../identity/users";
import { html } from "../web/html";
import { sendPage } from "../web/layout";
import type { ValidAuthorization } from "./authorization-request";

const SCOPE_TEXT: Record<Scope, string> = {
  read: "read costs, findings, Cloud Groups, budget alerts and scheduled reports",
  write: "create, change and delete Cloud Groups, budget alerts and scheduled reports; acknowledge findings",
  run: "start cost scans",
};

/** The consent form; it re-posts the authorization request's parameters so POST can validate them again. */
export function sendConsentPage(
  reply: FastifyReply,
  auth: ValidAuthorization,
  scopes: readonly Scope[],
  user: User,
  csrfToken: string,
): FastifyReply {
  const hidden = Object.entries(auth.params).map(([k, v]) => (v === undefined ? "" : html`<input type="hidden" name="${k}" value="${v}">`));
  const body = html`<p>Signed in as <strong>${user.email}</strong>.</p>
<p>The application <strong>${auth.client.name}</strong> (client ID <code>${auth.client.id}</code>) asks to act for you in your organization. It will be able to:</p>
<ul>${scopes.map((s) => html`<li><code>${s}</code>: ${SCOPE_TEXT[s]}</li>`)}</ul>
<p>After you decide you are sent to <code>${auth.redirectUri}</code>.</p>
<form method="post" action="/oauth/authorize">${hidden}<input type="hidden" name="_csrf" value="${csrfToken}">
<button type="submit" name="decision" value="allow">Allow</button> <button type="submit" name="decision" value="deny">Deny</button></form>`;
  return sendPage(reply, 200, "Authorize application", body);
}

/** Errors that must not be redirected (unknown client, unregistered redirect URI): shown to the person instead. */
export function sendAuthorizationErrorPage(reply: FastifyReply, status: number, message: string): FastifyReply {
  return sendPage(
    reply,
    status,
    "Authorization failed",
    html`<p class="error">${message}</p><p>Return to the application and start again.</p>`,
  );
}
