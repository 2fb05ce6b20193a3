import { ConnectedAccountPage, Member, Organization } from "./account";
import { AlertId, AlertInput, BudgetAlert, BudgetAlertPage } from "./budget-alert";
import { CloudGroup, CloudGroupPage, CreateGroup, GroupId, MemberList, ReplaceMembers, UpdateGroup } from "./cloud-group";
import { PageQuery, Scope } from "./common";
import { CostByDay, CostByService, CostComparison, CostForecast, CostQuery, CostSummary } from "./cost";
import { FindingId, Acknowledgement, FindingPage } from "./finding";
import { GlobalFilter } from "./filter";
import { RunId, ScanRun, ScanRunPage } from "./scan";
import { ReportId, ReportInput, ScheduledReport, ScheduledReportPage } from "./scheduled-report";
import { z } from "./zod";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One endpoint of `{base_url}` (= `/api/v1`). This table is the single source of truth: the sandbox
 * registers its routes from it, the client's typed calls are keyed by `operationId`, and the OpenAPI
 * document is generated from it.
 */
export interface Route {
  operationId: string;
  method: Method;
  /** OpenAPI-style path relative to `/api/v1`, e.g. `/groups/{groupId}`. */
  path: string;
  scope: Scope;
  summary: string;
  tag: string;
  params?: z.ZodObject;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Success status and body schema (`null` for 204 No Content). */
  status: 200 | 201 | 202 | 204;
  response: z.ZodType | null;
  /** The route returns an `ETag`; when it is a PUT, PATCH or DELETE it also honours `If-Match` (412 on mismatch). */
  etag?: boolean;
  /** POST honouring `Idempotency-Key`. */
  idempotent?: boolean;
  /**
   * Statuses the handler itself can answer besides the ones every route of its kind gets from the
   * pipeline (401, 403, 429, 431; 400 for query, body or method; 404 for path parameters; 412 with
   * If-Match; 413/415 for body-reading methods; 422 with Idempotency-Key). The document lists exactly
   * these, and the conformance test (test/contract) proves each is reachable.
   */
  errors?: number[];
}

const groupParams = z.object({ groupId: GroupId }).strict();
const alertParams = z.object({ alertId: AlertId }).strict();
const reportParams = z.object({ reportId: ReportId }).strict();
const findingParams = z.object({ findingId: FindingId }).strict();
const memberParams = z.object({ groupId: GroupId, provider: z.enum(["aws", "azure"]), accountId: z.string().min(1).max(64) }).strict();

function costRead(operationId: string, path: string, response: z.ZodType, summary: string): Route {
  return { operationId, method: "GET", path, scope: "read", tag: "Cost", summary, query: CostQuery, status: 200, response, errors: [404] };
}
function findingRoutes(kind: "insights" | "waste" | "recommendations", label: string): Route[] {
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
  ];
}
function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
function crud(
  tag: string,
  plural: string,
  idName: string,
  params: z.ZodObject,
  input: z.ZodType,
  one: z.ZodType,
  list: z.ZodType,
  noun: string,
): Route[] {
  const one_ = `/${plural}/{${idName}}`;
  const Noun = cap(noun);
  return [
    {
      operationId: `list${Noun}s`,
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
      operationId: `create${Noun}`,
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
    {
      operationId: `get${Noun}`,
      method: "GET",
      path: one_,
      scope: "read",
      tag,
      summary: `Read one ${noun}`,
      params,
      status: 200,
      response: one,
      etag: true,
      errors: [404],
    },
    {
      operationId: `replace${Noun}`,
      method: "PUT",
      path: one_,
      scope: "write",
      tag,
      summary: `Replace a ${noun}`,
      params,
      body: input,
      status: 200,
      response: one,
      etag: true,
      errors: [422],
    },
    {
      operationId: `delete${Noun}`,
      method: "DELETE",
      path: one_,
      scope: "write",
      tag,
      summary: `Delete a ${noun}`,
      params,
      status: 204,
      response: null,
      etag: true,
    },
  ];
}

export const routes: readonly Route[] = [
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
  ...crud("Budget alerts", "alerts", "alertId", alertParams, AlertInput, BudgetAlert, BudgetAlertPage, "alert"),
  ...crud("Scheduled reports", "reports", "reportId", reportParams, ReportInput, ScheduledReport, ScheduledReportPage, "report"),
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
    params: z.object({ runId: RunId }).strict(),
    status: 200,
    response: ScanRun,
  },
];

const byOperationId: ReadonlyMap<string, Route> = new Map(routes.map((r) => [r.operationId, r]));

/** The route of an operation (the client looks one up on every call). */
export function routeById(operationId: string): Route {
  const r = byOperationId.get(operationId);
  if (!r) throw new Error(`unknown operation ${operationId}`);
  return r;
}
