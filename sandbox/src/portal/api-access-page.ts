import { ALL_SCOPES, type Scope } from "@cloudcost/api/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { SandboxContext } from "../service/context";
import type { NewClient } from "../identity/credentials";
import type { IdentityStores } from "../identity/identity-stores";
import { ServiceError } from "../errors";
import { formFields } from "../web/form-fields";
import { html, type SafeHtml } from "../web/html";
import { csrfField, sendPortalPage, signedInPage, type PortalView } from "./portal-page";
import { timeText } from "./time-text";
import { ACTIONS, dataTable } from "./data-table";

const PATH = "/portal/api-access";
const TITLE = "API Access";

/** Something to show once (a new secret) or a problem with the last form. */
type Notice = { secret: SafeHtml } | { error: string };

function scopeBoxes(permitted: readonly Scope[]): SafeHtml {
  return html`<fieldset><legend>Scopes</legend>${permitted.map((s) => html`<label><input type="checkbox" name="scopes" value="${s}" checked> ${s}</label>`)}</fieldset>`;
}

function tokensSection(ctx: SandboxContext, view: PortalView, permitted: readonly Scope[]): SafeHtml {
  const now = Date.now();
  const rows = ctx.credentials.listApiTokens(view.user.orgId).map((t) => {
    const state = t.revokedAt !== null ? "revoked" : t.expiresAt !== null && t.expiresAt <= now ? "expired" : "active";
    const revoke =
      state === "active"
        ? html`<form class="inline" method="post" action="${PATH}/tokens/revoke">${csrfField(view)}<input type="hidden" name="ref" value="${t.ref}"><button type="submit" aria-label="Revoke token ${t.label} (created ${new Date(t.createdAt).toISOString()})">Revoke</button></form>`
        : "";
    return [
      t.label,
      t.scopes.join(" "),
      timeText(t.createdAt, now),
      timeText(t.lastUsedAt, now),
      timeText(t.expiresAt, now),
      state,
      revoke,
    ];
  });
  return html`<h2>API tokens</h2>${rows.length ? dataTable(["Name", "Scopes", "Created", "Last used", "Expires", "State", ACTIONS], rows) : html`<p>No API tokens.</p>`}
<h3>Create an API token</h3><form method="post" action="${PATH}/tokens" class="panel">${csrfField(view)}<label>Name <input name="label" required maxlength="100"></label>${scopeBoxes(permitted)}<button type="submit">Create API token</button></form>`;
}

function clientsSection(ctx: SandboxContext, view: PortalView, permitted: readonly Scope[]): SafeHtml {
  const rows = ctx.credentials
    .listClients(view.user.orgId)
    .map((c) => [
      c.name,
      html`<code>${c.id}</code>`,
      c.scopes.join(" "),
      timeText(Date.parse(c.createdAt), Date.now()),
      html`<form class="inline" method="post" action="${PATH}/clients/delete">${csrfField(view)}<input type="hidden" name="client_id" value="${c.id}"><button type="submit" aria-label="Delete client ${c.name} (${c.id})">Delete</button></form>`,
    ]);
  return html`<h2>OAuth clients (client credentials)</h2>${rows.length ? dataTable(["Name", "Client ID", "Allowed scopes", "Created", ACTIONS], rows) : html`<p>No OAuth clients.</p>`}
<h3>Create an OAuth client</h3><form method="post" action="${PATH}/clients" class="panel">${csrfField(view)}<label>Name <input name="name" required maxlength="100"></label>${scopeBoxes(permitted)}<button type="submit">Create OAuth client</button></form>
<p>Deleting a client invalidates every token it issued.</p>`;
}

function send(ctx: SandboxContext, reply: FastifyReply, view: PortalView, notice?: Notice, status = 200): FastifyReply {
  const permitted = ctx.orgs.permissions(view.user.orgId);
  const top = notice === undefined ? "" : "error" in notice ? html`<p class="error" role="alert">${notice.error}</p>` : notice.secret;
  return sendPortalPage(
    reply,
    view,
    PATH,
    TITLE,
    html`${top}${tokensSection(ctx, view, permitted)}${clientsSection(ctx, view, permitted)}`,
    status,
  );
}

/** The form's `label`/`name` (1–100 characters) and `scopes` (at least one, each permitted to the organization). */
function readCreateForm(
  ctx: SandboxContext,
  view: PortalView,
  form: Readonly<Record<string, unknown>>,
  field: "label" | "name",
): { name: string; scopes: Scope[] } | string {
  const name = typeof form[field] === "string" ? (form[field] as string).trim() : "";
  if (name.length < 1 || name.length > 100) return "Name must be 1 to 100 characters.";
  const raw = form.scopes === undefined ? [] : ([] as unknown[]).concat(form.scopes);
  const permitted = ctx.orgs.permissions(view.user.orgId);
  const scopes = ALL_SCOPES.filter((s) => raw.includes(s));
  if (scopes.length === 0 || scopes.length !== raw.length || scopes.some((s) => !permitted.includes(s)))
    return `Choose at least one scope; allowed: ${permitted.join(", ")}.`;
  return { name, scopes };
}

function secretNotice(what: string, rows: [string, string][]): Notice {
  return {
    secret: html`<div class="secret" role="status"><p><strong>${what}</strong> Copy it now: it is shown only once and cannot be shown again.</p>${rows.map(([k, v]) => html`<p>${k}: <code data-secret="${k}">${v}</code></p>`)}</div>`,
  };
}

/** API Access: API tokens and confidential OAuth clients; secrets are shown once, in the response to the create form. */
export function registerApiAccessPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  const page = (handler: Parameters<typeof signedInPage>[2]) => signedInPage(ctx, stores, handler);
  const guarded = { preHandler: app.csrfProtection };
  app.get(
    PATH,
    page((view, _request, reply) => send(ctx, reply, view)),
  );
  app.post(
    `${PATH}/tokens`,
    guarded,
    page((view, request, reply) => {
      const input = readCreateForm(ctx, view, formFields(request), "label");
      if (typeof input === "string") return send(ctx, reply, view, { error: input }, 400);
      const { token } = ctx.credentials.issueToken({
        kind: "api",
        orgId: view.user.orgId,
        scopes: input.scopes,
        ttlSeconds: null,
        userId: view.user.id,
        label: input.name,
      });
      return send(ctx, reply, view, secretNotice("New API token.", [["Token", token]]), 201);
    }),
  );
  app.post(
    `${PATH}/tokens/revoke`,
    guarded,
    page((view, request, reply) => {
      ctx.credentials.revokeApiToken(view.user.orgId, String(formFields(request).ref ?? ""));
      return reply.redirect(PATH, 303);
    }),
  );
  app.post(
    `${PATH}/clients`,
    guarded,
    page((view, request, reply) => {
      const input = readCreateForm(ctx, view, formFields(request), "name");
      if (typeof input === "string") return send(ctx, reply, view, { error: input }, 400);
      let client: NewClient;
      try {
        client = ctx.credentials.createConfidentialClient(view.user.orgId, input.name, input.scopes);
      } catch (error) {
        if (error instanceof ServiceError) return send(ctx, reply, view, { error: error.message }, error.status);
        throw error;
      }
      return send(
        ctx,
        reply,
        view,
        secretNotice("New OAuth client.", [
          ["Client ID", client.client_id],
          ["Client secret", client.client_secret],
        ]),
        201,
      );
    }),
  );
  app.post(
    `${PATH}/clients/delete`,
    guarded,
    page((view, request, reply) => {
      ctx.credentials.deleteClient(view.user.orgId, String(formFields(request).client_id ?? ""));
      return reply.redirect(PATH, 303);
    }),
  );
}
