import type { CloudGroup } from "@cloudcost/api";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { ServiceError } from "../errors";
import { formFields } from "../web/form-fields";
import { html, type SafeHtml } from "../web/html";
import { csrfField, sendPortalPage, signedInPage, type PortalView } from "./portal-page";

const PATH = "/portal/groups";

function groupRows(groups: readonly CloudGroup[]): SafeHtml {
  if (groups.length === 0) return html`<p>No Cloud Groups yet.</p>`;
  return html`<table><thead><tr><th>Name</th><th>Description</th><th>Created through</th><th>Members</th><th>ID</th></tr></thead><tbody>${groups.map(
    (g) =>
      html`<tr><td>${g.name}</td><td>${g.description}</td><td>${g.source === "api" ? "API" : "portal"}</td><td>${g.members.length === 0 ? "none" : g.members.map((m) => html`${m.provider}:${m.accountId}<br>`)}</td><td><code>${g.id}</code></td></tr>`,
  )}</tbody></table>`;
}

function body(view: PortalView, error?: ServiceError): SafeHtml {
  const shown = view.selected ? [view.selected] : view.groups;
  const problem = error
    ? html`<div class="error" role="alert"><p>${error.message}</p><ul>${(error.errors ?? []).map((e) => html`<li>${e.path.replace(/^body\./, "")}: ${e.message}</li>`)}</ul></div>`
    : "";
  return html`${groupRows(shown)}
<h2>Create a Cloud Group</h2>${problem}
<form method="post" action="${PATH}">${csrfField(view)}<label>Name <input name="name" required maxlength="100"></label><label>Description <input name="description" maxlength="500"></label><button type="submit">Create group</button></form>
<p>Members are assigned through the API's membership endpoints.</p>`;
}

/** Cloud Groups: the same store as the API, so a group created either way is the same kind of object (spec rule 1). */
export function registerGroupsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  app.get(
    PATH,
    signedInPage(ctx, stores, (view, _request, reply) => sendPortalPage(reply, view, PATH, "Cloud Groups", body(view))),
  );
  app.post(
    PATH,
    { preHandler: app.csrfProtection },
    signedInPage(ctx, stores, (view, request, reply) => {
      const form = formFields(request);
      try {
        ctx.groups.create(
          view.user.orgId,
          { name: form.name as string, description: (form.description as string | undefined) ?? "" },
          "portal",
        );
      } catch (e) {
        if (!(e instanceof ServiceError) || e.status >= 500) throw e;
        return sendPortalPage(reply, view, PATH, "Cloud Groups", body(view, e), e.status);
      }
      return reply.redirect(PATH, 303);
    }),
  );
}
