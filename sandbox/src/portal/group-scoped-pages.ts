import type { FieldError, z } from "@cloudcost/api/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { SandboxContext } from "../service/context";
import type { IdentityStores } from "../identity/identity-stores";
import type { GroupScopedTable } from "../store/group-scoped-table";
import { writeTransaction } from "../store/connection";
import { fieldOf } from "../validation";
import { formFields } from "../web/form-fields";
import { html, type SafeHtml } from "../web/html";
import { ACTIONS, dataTable } from "./data-table";
import { blankForm, errorSummary, parseInput, serviceErrors, type FormState } from "./form-controls";
import { csrfField, sendPortalPage, signedInPage, withGroup, type PortalView } from "./portal-page";

/**
 * A portal table of resources that may cover one Cloud Group (alerts, reports), with create, edit and
 * delete. Forms are parsed into the contract's input schema and saved through the same store calls as the
 * API's handlers, in one write transaction: the same rules, the same messages, one copy of each.
 */
export interface GroupScopedPages<F extends { groupId: string | null }, V extends { id: string; name: string; groupId: string | null }> {
  path: string;
  title: string;
  /** Singular noun, e.g. "budget alert". */
  noun: string;
  /** Plural noun for the empty state, e.g. "budget alerts". */
  plural: string;
  /** The contract's input schema (the API's request body for create and replace). */
  schema: z.ZodType<F, unknown>;
  store(ctx: SandboxContext): GroupScopedTable<F, V>;
  /** The input object a submitted form stands for (before the schema). */
  candidate(form: Readonly<Record<string, unknown>>): unknown;
  /** Error paths of the input object → the form field names that show them (thresholds skip blank rows, for example). */
  fieldPath?(path: string, form: Readonly<Record<string, unknown>>): string;
  /** Form values of a new object, and of an existing one to edit. */
  defaults: Readonly<Record<string, unknown>>;
  formOf(item: V): Record<string, unknown>;
  fields(view: PortalView, state: FormState): SafeHtml;
  headers: readonly string[];
  /** One cell per header. */
  row(view: PortalView, item: V): (SafeHtml | string)[];
}

/** What a resource covers: its Cloud Group's name, or the whole organization. */
export function scopeName(view: PortalView, groupId: string | null): string {
  return groupId === null ? "whole organization" : (view.groups.find((g) => g.id === groupId)?.name ?? groupId);
}

/** The "Covers" choices of a form: the whole organization or one of its Cloud Groups. */
export const coverOptions = (view: PortalView): [string, string][] => [
  ["", "Whole organization"],
  ...view.groups.map((g): [string, string] => [g.id, `Cloud Group ${g.name}`]),
];

export function registerGroupScopedPages<
  F extends { groupId: string | null },
  V extends { id: string; name: string; groupId: string | null },
>(app: FastifyInstance, ctx: SandboxContext, stores: IdentityStores, page: GroupScopedPages<F, V>): void {
  const guarded = { preHandler: app.csrfProtection };
  const actions = (view: PortalView, item: V): SafeHtml =>
    html`<div class="actions"><a href="${withGroup(view, `${page.path}/${item.id}/edit`)}" aria-label="Edit ${page.noun} ${item.name}">Edit</a><form class="inline" method="post" action="${withGroup(view, `${page.path}/${item.id}/delete`)}">${csrfField(view)}<button type="submit" aria-label="Delete ${page.noun} ${item.name}">Delete</button></form></div>`;

  const sendList = (reply: FastifyReply, view: PortalView): FastifyReply => {
    const items = page
      .store(ctx)
      .list(view.user.orgId)
      .filter((item) => !view.selected || item.groupId === view.selected.id);
    const table =
      items.length === 0
        ? html`<p>No ${page.plural}${view.selected ? " for this group" : ""} yet.</p>`
        : dataTable(
            [...page.headers, ACTIONS],
            items.map((item) => [...page.row(view, item), actions(view, item)]),
          );
    return sendPortalPage(
      reply,
      view,
      page.path,
      page.title,
      html`<p><a href="${withGroup(view, `${page.path}/new`)}">New ${page.noun}</a></p>${table}`,
    );
  };

  const sendForm = (reply: FastifyReply, view: PortalView, state: FormState, existing?: V, status = 200): FastifyReply => {
    const action = existing ? `${page.path}/${existing.id}` : page.path;
    const title = existing ? `Edit ${page.noun} “${existing.name}”` : `New ${page.noun}`;
    const body = html`${errorSummary(state)}<form method="post" action="${withGroup(view, action)}" class="panel" novalidate>${csrfField(view)}${page.fields(view, state)}
<p class="actions"><button type="submit">${existing ? "Save changes" : `Create ${page.noun}`}</button> <a href="${withGroup(view, page.path)}">Cancel</a></p></form>`;
    return sendPortalPage(reply, view, page.path, title, body, status);
  };

  /** Validates with the schema, then saves through the store in one transaction; any refusal is shown on the form it came from. */
  const save = (
    reply: FastifyReply,
    view: PortalView,
    form: Readonly<Record<string, unknown>>,
    write: (fields: F) => unknown,
    existing?: V,
  ) => {
    const parsed = parseInput(page.schema, page.candidate(form));
    const located = (errors: FieldError[]) => errors.map((e) => ({ ...e, path: page.fieldPath ? page.fieldPath(e.path, form) : e.path }));
    if (!parsed.ok) return sendForm(reply, view, { values: form, errors: located(parsed.errors) }, existing, 400);
    try {
      writeTransaction(ctx.db, () => write(parsed.data));
    } catch (error) {
      const refused = serviceErrors(error);
      return sendForm(reply, view, { values: form, errors: located(refused.errors) }, existing, refused.status);
    }
    return reply.redirect(withGroup(view, page.path), 303);
  };

  const signedIn = (handler: Parameters<typeof signedInPage>[2]) => signedInPage(ctx, stores, handler);
  const idOf = (params: unknown): string => {
    const id = fieldOf(params, "id");
    return typeof id === "string" ? id : "";
  };

  app.get(
    page.path,
    signedIn((view, _request, reply) => sendList(reply, view)),
  );
  app.get(
    `${page.path}/new`,
    signedIn((view, _request, reply) => sendForm(reply, view, blankForm({ ...page.defaults, groupId: view.selected?.id ?? "" }))),
  );
  app.post(
    page.path,
    guarded,
    signedIn((view, request, reply) => save(reply, view, formFields(request), (fields) => page.store(ctx).create(view.user.orgId, fields))),
  );
  app.get(
    `${page.path}/:id/edit`,
    signedIn((view, request, reply) => {
      const item = page.store(ctx).require(view.user.orgId, idOf(request.params));
      return sendForm(reply, view, blankForm(page.formOf(item)), item);
    }),
  );
  app.post(
    `${page.path}/:id`,
    guarded,
    signedIn((view, request, reply) => {
      const item = page.store(ctx).require(view.user.orgId, idOf(request.params));
      return save(reply, view, formFields(request), (fields) => page.store(ctx).replace(view.user.orgId, item.id, fields), item);
    }),
  );
  app.post(
    `${page.path}/:id/delete`,
    guarded,
    signedIn((view, request, reply) => {
      writeTransaction(ctx.db, () => page.store(ctx).delete(view.user.orgId, idOf(request.params)));
      return reply.redirect(withGroup(view, page.path), 303);
    }),
  );
}
