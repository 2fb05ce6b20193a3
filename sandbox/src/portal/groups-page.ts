import { CreateGroup, UpdateGroup, type CloudGroup } from "@cloudcost/api/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import { writeTransaction } from "../store/connection";
import { fieldOf } from "../validation";
import { formFields } from "../web/form-fields";
import { html, type SafeHtml } from "../web/html";
import { ACTIONS, dataTable } from "./data-table";
import { blankForm, errorSummary, inputField, optionalText, parseInput, serviceErrors, type FormState } from "./form-controls";
import { csrfField, sendPortalPage, signedInPage, type PortalView } from "./portal-page";

const PATH = "/portal/groups";
const TITLE = "Cloud Groups";

function groupRows(view: PortalView, groups: readonly CloudGroup[]): SafeHtml {
  if (groups.length === 0) return html`<p>No Cloud Groups yet.</p>`;
  return dataTable(
    ["Name", "Description", "Created through", "Members", "ID", ACTIONS],
    groups.map((g) => [
      g.name,
      g.description,
      g.source === "api" ? "API" : "portal",
      g.members.length === 0 ? "none" : html`${g.members.map((m) => html`${m.provider}:${m.accountId}<br>`)}`,
      html`<code>${g.id}</code>`,
      html`<div class="actions"><a href="${PATH}/${g.id}/edit" aria-label="Edit Cloud Group ${g.name}">Edit</a><form class="inline" method="post" action="${PATH}/${g.id}/delete">${csrfField(view)}<button type="submit" aria-label="Delete Cloud Group ${g.name}">Delete</button></form></div>`,
    ]),
  );
}

const groupFields = (state: FormState): SafeHtml =>
  html`${inputField(state, { name: "name", label: "Name", required: true })}${inputField(state, { name: "description", label: "Description" })}`;

function listBody(view: PortalView, create: FormState, problem?: FormState): SafeHtml {
  const shown = view.selected ? [view.selected] : view.groups;
  return html`${problem ? errorSummary(problem) : ""}${groupRows(view, shown)}
<h2>Create a Cloud Group</h2>${errorSummary(create)}
<form method="post" action="${PATH}" class="panel" novalidate>${csrfField(view)}${groupFields(create)}<button type="submit">Create group</button></form>
<p>Members are assigned through the API's membership endpoints.</p>`;
}

const sendList = (reply: FastifyReply, view: PortalView, create: FormState, status = 200, problem?: FormState) =>
  sendPortalPage(reply, view, PATH, TITLE, listBody(view, create, problem), status);

function sendEdit(reply: FastifyReply, view: PortalView, group: CloudGroup, state: FormState, status = 200): FastifyReply {
  const body = html`${errorSummary(state)}<form method="post" action="${PATH}/${group.id}" class="panel" novalidate>${csrfField(view)}${groupFields(state)}
<p class="actions"><button type="submit">Save changes</button> <a href="${PATH}">Cancel</a></p></form>`;
  return sendPortalPage(reply, view, PATH, `Edit Cloud Group “${group.name}”`, body, status);
}

const groupIdOf = (params: unknown): string => {
  const id = fieldOf(params, "id");
  return typeof id === "string" ? id : "";
};

/**
 * Cloud Groups: the same store as the API, so a group created either way is the same kind of object (spec
 * rule 1); forms are parsed with the contract's `CreateGroup`/`UpdateGroup` and saved with the API's store calls.
 */
export function registerGroupsPage(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores): void {
  const guarded = { preHandler: app.csrfProtection };
  const signedIn = (handler: Parameters<typeof signedInPage>[2]) => signedInPage(ctx, stores, handler);
  app.get(
    PATH,
    signedIn((view, _request, reply) => sendList(reply, view, blankForm())),
  );
  app.post(
    PATH,
    guarded,
    signedIn((view, request, reply) => {
      const form = formFields(request);
      const parsed = parseInput(CreateGroup, { name: optionalText(form, "name"), description: optionalText(form, "description") });
      if (!parsed.ok) return sendList(reply, view, { values: form, errors: parsed.errors }, 400);
      try {
        writeTransaction(ctx.db, () => ctx.groups.create(view.user.orgId, parsed.data, "portal"));
      } catch (error) {
        const refused = serviceErrors(error);
        return sendList(reply, view, { values: form, errors: refused.errors }, refused.status);
      }
      return reply.redirect(PATH, 303);
    }),
  );
  app.get(
    `${PATH}/:id/edit`,
    signedIn((view, request, reply) => {
      const group = ctx.groups.require(view.user.orgId, groupIdOf(request.params));
      return sendEdit(reply, view, group, blankForm({ name: group.name, description: group.description }));
    }),
  );
  app.post(
    `${PATH}/:id`,
    guarded,
    signedIn((view, request, reply) => {
      const group = ctx.groups.require(view.user.orgId, groupIdOf(request.params));
      const form = formFields(request);
      const parsed = parseInput(UpdateGroup, { name: optionalText(form, "name"), description: optionalText(form, "description") });
      if (!parsed.ok) return sendEdit(reply, view, group, { values: form, errors: parsed.errors }, 400);
      try {
        writeTransaction(ctx.db, () => ctx.groups.update(view.user.orgId, group.id, parsed.data));
      } catch (error) {
        const refused = serviceErrors(error);
        return sendEdit(reply, view, group, { values: form, errors: refused.errors }, refused.status);
      }
      return reply.redirect(PATH, 303);
    }),
  );
  app.post(
    `${PATH}/:id/delete`,
    guarded,
    signedIn((view, request, reply) => {
      try {
        writeTransaction(ctx.db, () => ctx.groups.delete(view.user.orgId, groupIdOf(request.params)));
      } catch (error) {
        const refused = serviceErrors(error);
        return sendList(reply, view, blankForm(), refused.status, { values: {}, errors: refused.errors });
      }
      return reply.redirect(PATH, 303);
    }),
  );
}
