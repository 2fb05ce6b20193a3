import { ConnectedAccountPage, Member, Organization } from "./account";
import { AlertId, AlertRequest, BudgetAlert, BudgetAlertPage } from "./budget-alert";
import { CloudGroup, CloudGroupPage, CreateGroup, GroupId, MemberList, ReplaceMembers, UpdateGroup } from "./cloud-group";
import { PageQuery, Scope } from "./common";
import { AlertDraftQuery, DRY_RUN_DESCRIPTION, GroupDraft, GroupDraftQuery, ReportDraftQuery } from "./dry-run";
import { CostByDay, CostByService, CostComparison, CostForecast, CostQuery, CostSummary } from "./cost";
import { DeliveryList, Delivery, Event, EventId, EventPage, EventQuery, SigningSecret } from "./event";
import { FindingId, Acknowledgement, FindingPage } from "./finding";
import { GlobalFilter } from "./filter";
import { IdempotencyRecordPage, IdempotencyRecordQuery } from "./idempotency";
import { RunId, ScanRun, ScanRunPage } from "./scan";
import { ReportId, ReportRequest, ScheduledReport, ScheduledReportPage } from "./scheduled-report";
import { z } from "./zod";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One endpoint of `{base_url}` (= `/api/v1`). The table below is the single source of truth: the sandbox
 * registers its routes from it and types each handler from its schemas, the client's calls are keyed and
 * typed by `operationId`, and the OpenAPI document is generated from it.
 */
/** The path every operation lives under (spec: "Base URL"): `{base_url}` is the origin followed by it. */
export const API_BASE_PATH = "/api/v1";

export interface Route {
  readonly operationId: string;
  readonly method: Method;
  /** OpenAPI-style path relative to `/api/v1`, e.g. `/groups/{groupId}`. */
  readonly path: string;
  readonly scope: Scope;
  readonly summary: string;
  /** A longer description for the document, when the summary cannot say enough. */
  readonly description?: string;
  readonly tag: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** Success status and body schema (`null` for 204 No Content). */
  readonly status: 200 | 201 | 202 | 204;
  readonly response: z.ZodType | null;
  /** The route returns an `ETag`; when it is a PUT, PATCH or DELETE it also honours `If-Match` (412 on mismatch). */
  readonly etag?: boolean;
  /** POST honouring `Idempotency-Key`. */
  readonly idempotent?: boolean;
  /**
   * Statuses the handler itself can answer besides the ones every route of its kind gets from the
   * pipeline (401, 403, 429, 431, 421; 400 for query, body or method; 404 for path parameters; 412 with
   * If-Match; 413/415 for body-reading methods; 422 with Idempotency-Key). The document lists exactly
   * these, and the conformance test (test/contract) proves each is reachable.
   */
  readonly errors?: readonly number[];
  /** What a 409 of this route means (for the document), when `errors` has one. */
  readonly conflict?: string;
  /** What a 404 of a route without path parameters means (for the document), when `errors` has one. */
  readonly notFound?: string;
}

const groupParams = z.object({ groupId: GroupId }).strict();
const alertParams = z.object({ alertId: AlertId }).strict();
const reportParams = z.object({ reportId: ReportId }).strict();
const runParams = z.object({ runId: RunId }).strict();
const findingParams = z.object({ findingId: FindingId }).strict();
const eventParams = z.object({ eventId: EventId }).strict();
const memberParams = z.object({ groupId: GroupId, provider: z.enum(["aws", "azure"]), accountId: z.string().min(1).max(64) }).strict();

function costRead<const Id extends string, const P extends string, R extends z.ZodType>(
  operationId: Id,
  path: P,
  response: R,
  summary: string,
) {
  return {
    operationId,
    method: "GET",
    path,
    scope: "read",
    tag: "Cost",
    summary,
    query: CostQuery,
    status: 200,
    response,
    errors: [404, 422],
  } as const satisfies Route;
}
function findingRoutes<const K extends "insights" | "waste" | "recommendations">(kind: K, label: string) {
  return [
    {
      operationId: `list${cap(kind)}`,
      method: "GET",
      path: `/${kind}`,
      scope: "read",
      tag: "Findings",
      summary: `List open ${label}`,
      query: PageQuery,
      status: 200,
      response: FindingPage,
    },
    {
      operationId: `acknowledge${cap(kind)}`,
      method: "POST",
      path: `/${kind}/{findingId}/acknowledge`,
      scope: "write",
      tag: "Findings",
      summary: `Acknowledge one of the ${label} (idempotent); it leaves the open list`,
      params: findingParams,
      status: 200,
      response: Acknowledgement,
    },
  ] as const satisfies readonly Route[];
}
/** `alert` → `Alert`, at the type level too, so generated operation ids stay literal types. */
function cap<S extends string>(s: S): Capitalize<S> {
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}` as Capitalize<S>;
}
/** The operation ids of one `crud` resource: `crudIds("alert")` is `{ list: "listAlerts", create: "createAlert", … }`. */
export interface CrudIds<Noun extends string> {
  list: `list${Capitalize<Noun>}s`;
  create: `create${Capitalize<Noun>}`;
  get: `get${Capitalize<Noun>}`;
  replace: `replace${Capitalize<Noun>}`;
  delete: `delete${Capitalize<Noun>}`;
  /** The dry-run of a create or replace (issue 38, ./dry-run.ts). */
  validate: `validate${Capitalize<Noun>}`;
}
export function crudIds<const Noun extends string>(noun: Noun): CrudIds<Noun> {
  const Noun = cap(noun);
  return {
    list: `list${Noun}s`,
    create: `create${Noun}`,
    get: `get${Noun}`,
    replace: `replace${Noun}`,
    delete: `delete${Noun}`,
    validate: `validate${Noun}`,
  };
}
/** The resources the table has a `crud` set of operations for, each with the name of its id parameter. */
export const CRUD_RESOURCES = { alert: "alertId", report: "reportId" } as const;
export type CrudNoun = keyof typeof CRUD_RESOURCES;

/**
 * The dry-run of one kind's create or change (./dry-run.ts): `POST /{plural}:validate`, 204 when it would be
 * accepted. A custom method in the form of Google's AIP-136 (`:verb` after the collection): as
 * `/{plural}/validate` it would sit under `/{plural}/{id}`, where a GET or DELETE of it would be a 404 for a
 * malformed id instead of the 405 with `Allow` that every known path answers.
 */
function validateRoute<const Id extends string, const Plural extends string, Q extends z.ZodType, B extends z.ZodType>(
  operationId: Id,
  tag: string,
  plural: Plural,
  query: Q,
  body: B,
  noun: string,
  errors: readonly (404 | 409 | 422)[],
) {
  return {
    operationId,
    method: "POST",
    path: `/${plural}:validate`,
    scope: "read",
    tag,
    summary: `Dry-run of a ${noun}'s create or change: the problems the real request would get, nothing written`,
    description: DRY_RUN_DESCRIPTION,
    query,
    body,
    status: 204,
    response: null,
    errors,
    notFound: `The ${noun} named in the query does not exist (as the real change would answer)`,
  } as const satisfies Route;
}

/** list/create/get/replace/delete/validate of one group-scoped resource (`noun` names the operations: `listAlerts`, `getAlert`, …). */
function crud<
  const Noun extends string,
  const Plural extends string,
  const IdName extends string,
  P extends z.ZodObject,
  I extends z.ZodType,
  O extends z.ZodType,
  L extends z.ZodType,
  Q extends z.ZodType,
>(tag: string, plural: Plural, idName: IdName, params: P, input: I, one: O, list: L, noun: Noun, draftQuery: Q) {
  const path = `/${plural}/{${idName}}` as const;
  const ids = crudIds(noun);
  // What get, replace and delete share: the item's path, its id parameter and an ETag (If-Match on changes).
  const item = { path, params, tag, etag: true } as const;
  return [
    {
      operationId: ids.list,
      method: "GET",
      path: `/${plural}`,
      scope: "read",
      tag,
      summary: `List ${noun}s`,
      query: PageQuery,
      status: 200,
      response: list,
    },
    {
      operationId: ids.create,
      method: "POST",
      path: `/${plural}`,
      scope: "write",
      tag,
      summary: `Create a ${noun}`,
      body: input,
      status: 201,
      response: one,
      etag: true,
      idempotent: true,
      errors: [422],
    },
    { ...item, operationId: ids.get, method: "GET", scope: "read", summary: `Read one ${noun}`, status: 200, response: one, errors: [404] },
    {
      ...item,
      operationId: ids.replace,
      method: "PUT",
      scope: "write",
      summary: `Replace a ${noun}`,
      body: input,
      status: 200,
      response: one,
      errors: [422],
    },
    { ...item, operationId: ids.delete, method: "DELETE", scope: "write", summary: `Delete a ${noun}`, status: 204, response: null },
    validateRoute(ids.validate, tag, plural, draftQuery, input, noun, [404, 422]),
  ] as const satisfies readonly Route[];
}

/** The operation table: each entry keeps its literal types, so every operation is typed from its own schemas. */
export const operations = [
  costRead("getCostSummary", "/cost/summary", CostSummary, "Totals, per-provider split and forecast for a window"),
  costRead("getCostByService", "/cost/services", CostByService, "Cost per service for a window"),
  costRead("getCostByDay", "/cost/daily", CostByDay, "Cost per day for a window"),
  costRead("getCostForecast", "/cost/forecast", CostForecast, "Actual and forecast cost per day for a window"),
  costRead("getCostComparison", "/cost/comparison", CostComparison, "A window compared with the window of the same length before it"),
  ...findingRoutes("insights", "insights"),
  ...findingRoutes("waste", "waste findings"),
  ...findingRoutes("recommendations", "recommendations"),
  {
    operationId: "getOrganization",
    method: "GET",
    path: "/organization",
    scope: "read",
    tag: "Accounts",
    summary: "The organization the credentials belong to",
    status: 200,
    response: Organization,
  },
  {
    operationId: "listAccounts",
    method: "GET",
    path: "/accounts",
    scope: "read",
    tag: "Accounts",
    summary: "List the cloud accounts connected to the organization",
    query: PageQuery,
    status: 200,
    response: ConnectedAccountPage,
  },
  {
    operationId: "getFilters",
    method: "GET",
    path: "/filters",
    scope: "read",
    tag: "Accounts",
    summary: "The global filter: Cloud Groups, providers and accounts",
    status: 200,
    response: GlobalFilter,
  },
  {
    operationId: "listGroups",
    method: "GET",
    path: "/groups",
    scope: "read",
    tag: "Cloud Groups",
    summary: "List Cloud Groups",
    query: PageQuery,
    status: 200,
    response: CloudGroupPage,
  },
  {
    operationId: "createGroup",
    method: "POST",
    path: "/groups",
    scope: "write",
    tag: "Cloud Groups",
    summary: "Create a Cloud Group (members are assigned through the membership endpoints)",
    body: CreateGroup,
    status: 201,
    response: CloudGroup,
    etag: true,
    idempotent: true,
    errors: [409],
  },
  validateRoute("validateGroup", "Cloud Groups", "groups", GroupDraftQuery, GroupDraft, "Cloud Group", [404, 409, 422]),
  {
    operationId: "getGroup",
    method: "GET",
    path: "/groups/{groupId}",
    scope: "read",
    tag: "Cloud Groups",
    summary: "Read one Cloud Group",
    params: groupParams,
    status: 200,
    response: CloudGroup,
    etag: true,
    errors: [404],
  },
  {
    operationId: "updateGroup",
    method: "PATCH",
    path: "/groups/{groupId}",
    scope: "write",
    tag: "Cloud Groups",
    summary: "Rename a Cloud Group or change its description",
    params: groupParams,
    body: UpdateGroup,
    status: 200,
    response: CloudGroup,
    etag: true,
    errors: [409],
  },
  {
    operationId: "deleteGroup",
    method: "DELETE",
    path: "/groups/{groupId}",
    scope: "write",
    tag: "Cloud Groups",
    summary: "Delete a Cloud Group (409 while alerts or reports use it)",
    params: groupParams,
    status: 204,
    response: null,
    etag: true,
    errors: [409],
  },
  {
    operationId: "listMembers",
    method: "GET",
    path: "/groups/{groupId}/members",
    scope: "read",
    tag: "Cloud Groups",
    summary: "List a group's members",
    params: groupParams,
    status: 200,
    response: MemberList,
    errors: [404],
  },
  {
    operationId: "replaceMembers",
    method: "PUT",
    path: "/groups/{groupId}/members",
    scope: "write",
    tag: "Cloud Groups",
    summary: "Replace the whole member set in one call",
    params: groupParams,
    body: ReplaceMembers,
    status: 200,
    response: CloudGroup,
    etag: true,
    errors: [422],
  },
  {
    operationId: "addMember",
    method: "POST",
    path: "/groups/{groupId}/members",
    scope: "write",
    tag: "Cloud Groups",
    summary: "Add one member (adding a present member changes nothing)",
    params: groupParams,
    body: Member,
    status: 200,
    response: CloudGroup,
    etag: true,
    errors: [422],
  },
  {
    operationId: "removeMember",
    method: "DELETE",
    path: "/groups/{groupId}/members/{provider}/{accountId}",
    scope: "write",
    tag: "Cloud Groups",
    summary: "Remove one member",
    params: memberParams,
    status: 200,
    response: CloudGroup,
    etag: true,
  },
  ...crud(
    "Budget alerts",
    "alerts",
    CRUD_RESOURCES.alert,
    alertParams,
    AlertRequest,
    BudgetAlert,
    BudgetAlertPage,
    "alert",
    AlertDraftQuery,
  ),
  ...crud(
    "Scheduled reports",
    "reports",
    CRUD_RESOURCES.report,
    reportParams,
    ReportRequest,
    ScheduledReport,
    ScheduledReportPage,
    "report",
    ReportDraftQuery,
  ),
  {
    operationId: "startScan",
    method: "POST",
    path: "/scans",
    scope: "run",
    tag: "Scans",
    summary: "Start a scan; poll `GET /scans/{runId}`",
    status: 202,
    response: ScanRun,
    idempotent: true,
  },
  {
    operationId: "listScans",
    method: "GET",
    path: "/scans",
    scope: "read",
    tag: "Scans",
    summary: "List recent runs, newest first",
    query: PageQuery,
    status: 200,
    response: ScanRunPage,
  },
  {
    operationId: "getScan",
    method: "GET",
    path: "/scans/{runId}",
    scope: "read",
    tag: "Scans",
    summary: "A run's state and result",
    params: runParams,
    status: 200,
    response: ScanRun,
  },
  {
    operationId: "listEvents",
    method: "GET",
    path: "/events",
    scope: "read",
    tag: "Events",
    summary: "List the organization's events, newest first (`type` filters)",
    query: EventQuery,
    status: 200,
    response: EventPage,
  },
  {
    operationId: "getEvent",
    method: "GET",
    path: "/events/{eventId}",
    scope: "read",
    tag: "Events",
    summary: "Read one event: exactly the body its webhooks carry",
    params: eventParams,
    status: 200,
    response: Event,
  },
  {
    operationId: "listDeliveries",
    method: "GET",
    path: "/events/{eventId}/deliveries",
    scope: "read",
    tag: "Events",
    summary: "The event's deliveries: one per e-mail recipient, one per webhook URL, each with every attempt",
    params: eventParams,
    status: 200,
    response: DeliveryList,
  },
  {
    operationId: "redeliverEvent",
    method: "POST",
    path: "/events/{eventId}/redeliver",
    scope: "write",
    tag: "Events",
    summary: "Send the event's webhook once more, with the same `webhook-id`; answers the webhook delivery, its new attempt queued",
    params: eventParams,
    status: 202,
    response: Delivery,
    errors: [409],
    conflict: "the event has no webhook to send (its alert has no `webhookUrl`, or it is a report event)",
  },
  {
    operationId: "getWebhookSigningSecret",
    method: "GET",
    path: "/webhooks/signing-secret",
    scope: "write",
    tag: "Events",
    summary: "The organization's webhook signing secret (Standard Webhooks `whsec_…`); needs `write`, as it is a secret",
    status: 200,
    response: SigningSecret,
  },
  {
    operationId: "rotateWebhookSigningSecret",
    method: "POST",
    path: "/webhooks/signing-secret/rotate",
    scope: "write",
    tag: "Events",
    summary: "Replace the signing secret; for 24 h webhooks carry two signatures, the new and the previous one",
    status: 200,
    response: SigningSecret,
  },
  {
    operationId: "listIdempotencyKeys",
    method: "GET",
    path: "/idempotency-keys",
    scope: "read",
    tag: "Idempotency",
    summary:
      "The organization's remembered `Idempotency-Key`s (24 h; a key is forgotten when its object is deleted), in the order first used; `prefix` filters",
    query: IdempotencyRecordQuery,
    status: 200,
    response: IdempotencyRecordPage,
  },
] as const satisfies readonly Route[];

/** The same table seen as plain routes, in document order (for code that treats every route alike). */
export const routes: readonly Route[] = operations;

/** Every operation of the table, by `operationId`. */
export type Operations = { readonly [R in (typeof operations)[number] as R["operationId"]]: R };
export type OperationId = keyof Operations;

type OutputOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type InputOf<S> = S extends z.ZodType ? z.input<S> : undefined;
/** Validated path parameters of an operation (an empty object when it has none). */
export type ParamsOf<Id extends OperationId> = Operations[Id] extends { params: infer S } ? z.output<S> : Record<string, never>;
/** Validated query of an operation (undefined when it takes none). */
export type QueryOf<Id extends OperationId> = Operations[Id] extends { query: infer S } ? OutputOf<S> : undefined;
/** Validated request body of an operation (undefined when it takes none). */
export type BodyOf<Id extends OperationId> = Operations[Id] extends { body: infer S } ? OutputOf<S> : undefined;
/** What a caller may send as the body (schema input: defaults may be left out). */
export type BodyInputOf<Id extends OperationId> = Operations[Id] extends { body: infer S } ? InputOf<S> : undefined;
/** The success body of an operation (undefined for 204). */
export type ResponseOf<Id extends OperationId> = OutputOf<Operations[Id]["response"]>;

const byOperationId: ReadonlyMap<string, Route> = new Map(routes.map((r) => [r.operationId, r]));

/** The route of an operation (the client looks one up on every call). */
export function routeById<Id extends OperationId>(operationId: Id): Operations[Id];
export function routeById(operationId: string): Route;
export function routeById(operationId: string): Route {
  const r = byOperationId.get(operationId);
  if (!r) throw new Error(`unknown operation ${operationId}`);
  return r;
}

/** Whether a string names an operation of the table. */
export function isOperationId(id: string): id is OperationId {
  return byOperationId.has(id);
}
