import type { ConnectedAccount, Member, Organization as OrganizationT } from "../contract/account";
import { ConnectedAccountPage, Organization } from "../contract/account";
import type { AlertInput } from "../contract/budget-alert";
import { BudgetAlert, BudgetAlertPage } from "../contract/budget-alert";
import type { CreateGroup, UpdateGroup } from "../contract/cloud-group";
import { CloudGroup, CloudGroupPage, MemberList } from "../contract/cloud-group";
import type { Page } from "../contract/common";
import { CostByDay, CostByService, CostComparison, CostForecast, CostSummary } from "../contract/cost";
import type { CostQuery } from "../contract/cost";
import { routeById } from "../contract/routes";
import type { ReportInput } from "../contract/scheduled-report";
import { ScheduledReport, ScheduledReportPage } from "../contract/scheduled-report";
import type { z } from "../contract/zod";
import { ApiError } from "./api-error";
import { parseJson } from "./json";
import { errorFromResponse } from "./problem";
import { RatePacer } from "./rate-pacer";
import { DEFAULT_RETRY, type RetryOptions } from "./retry-policy";
import { ClientCredentialsTokenSource, StaticTokenSource, type TokenSource } from "./token-source";
import { newIdempotencyKey, send, type RequestEvent, type TransportOptions } from "./transport";

/** How the client authenticates: an API token, or OAuth client credentials. */
export type ClientAuth = { apiToken: string } | { clientId: string; clientSecret: string; authUrl?: string; scope?: string };

export interface ClientOptions {
  /** `{base_url}`, ending in `/api/v1`. */
  baseUrl: string;
  auth: ClientAuth;
  /** Bound on each attempt; default 30 s. */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /** Observer of every HTTP attempt (including token requests); used to count requests. */
  onRequest?: (e: RequestEvent) => void;
}

/** Path, query and body of one call; path parameters fill the route's `{name}` placeholders. */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Typed client of `{base_url}`. Every call is keyed by the contract's `operationId`, so method, path,
 * idempotency and the response schema come from `routes.ts`. One instance can be shared by any number of
 * concurrent callers; the HTTP pools are shared per origin across instances.
 */
export class CloudCostClient {
  private readonly base: URL;
  private readonly transport: TransportOptions;
  /** The API's transport: paced by the server's rate-limit headers, one budget per credentials. */
  private readonly apiTransport: TransportOptions;
  private readonly tokens: TokenSource;

  constructor(opts: ClientOptions) {
    this.base = new URL(opts.baseUrl.replace(/\/+$/, ""));
    this.transport = {
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: { ...DEFAULT_RETRY, ...opts.retry },
      onRequest: opts.onRequest,
    };
    this.apiTransport = { ...this.transport, pacer: new RatePacer() };
    this.tokens =
      "apiToken" in opts.auth
        ? new StaticTokenSource(opts.auth.apiToken)
        : new ClientCredentialsTokenSource(
            {
              clientId: opts.auth.clientId,
              clientSecret: opts.auth.clientSecret,
              authUrl: opts.auth.authUrl ?? this.base.origin,
              scope: opts.auth.scope,
            },
            this.transport,
          );
  }

  /**
   * Calls one operation and validates the response with its contract schema. Resolves with the parsed
   * body (undefined for 204); rejects with an {@link ApiError} for any other outcome.
   */
  async call<S extends z.ZodType | null>(
    operationId: string,
    input: CallInput,
    schema: S,
  ): Promise<S extends z.ZodType ? z.output<S> : undefined> {
    const route = routeById(operationId);
    const relative = fillPath(route.path, input.params ?? {});
    const path = `${this.base.pathname}${relative}${queryString(input.query)}`;
    const operation = `${route.method} ${relative}`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (input.body !== undefined) headers["content-type"] = "application/json";
    // Kept across every retry of this call, so a replayed create returns the first result.
    if (route.idempotent) headers["idempotency-key"] = newIdempotencyKey();
    // Safe to repeat (RFC 9110 §9.2.2): GET, PUT, DELETE, the contract's PATCH (updateGroup sets absolute
    // values, so a repeat has the same effect), and a POST only when it carries an Idempotency-Key.
    const idempotent = route.method !== "POST" || route.idempotent === true;
    const request = {
      origin: this.base.origin,
      path,
      method: route.method,
      headers,
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      idempotent,
      operation,
    };

    let token = await this.tokens.token();
    let outcome = await send({ ...request, headers: { ...headers, authorization: `Bearer ${token}` } }, this.apiTransport);
    // One refresh on 401: the token expired or was revoked since it was cached (RFC 6750 §3.1).
    if (outcome.response.status === 401 && this.tokens.invalidate(token)) {
      token = await this.tokens.token();
      outcome = await send({ ...request, headers: { ...headers, authorization: `Bearer ${token}` } }, this.apiTransport);
    }
    const { response, attempts } = outcome;
    if (response.status !== route.status) throw errorFromResponse(response, operation, attempts);
    if (schema === null) return undefined as S extends z.ZodType ? z.output<S> : undefined;
    const parsed = schema.safeParse(parseJson(response.body));
    if (!parsed.success)
      throw new ApiError({
        status: response.status,
        title: "response did not match the API contract",
        detail: parsed.error.issues[0]?.message,
        operation,
        attempts,
      });
    return parsed.data as S extends z.ZodType ? z.output<S> : undefined;
  }

  /** Every item of a paged list operation, following `nextCursor` until the last page. */
  async *paginate<T>(operationId: string, schema: z.ZodType<Page<T>>, pageSize = 200): AsyncGenerator<T> {
    let cursor: string | undefined;
    do {
      const page: Page<T> = await this.call(operationId, { query: { limit: pageSize, cursor } }, schema);
      yield* page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  // ---- Accounts ----
  /** The organization these credentials belong to. */
  getOrganization(): Promise<OrganizationT> {
    return this.call("getOrganization", {}, Organization);
  }
  listAccounts(): AsyncGenerator<ConnectedAccount> {
    return this.paginate("listAccounts", ConnectedAccountPage);
  }

  // ---- Cloud Groups ----
  listGroups(pageSize?: number): AsyncGenerator<CloudGroup> {
    return this.paginate("listGroups", CloudGroupPage, pageSize);
  }
  createGroup(body: CreateGroup): Promise<CloudGroup> {
    return this.call("createGroup", { body }, CloudGroup);
  }
  getGroup(groupId: string): Promise<CloudGroup> {
    return this.call("getGroup", { params: { groupId } }, CloudGroup);
  }
  updateGroup(groupId: string, body: UpdateGroup): Promise<CloudGroup> {
    return this.call("updateGroup", { params: { groupId }, body }, CloudGroup);
  }
  deleteGroup(groupId: string): Promise<undefined> {
    return this.call("deleteGroup", { params: { groupId } }, null);
  }
  async listMembers(groupId: string): Promise<Member[]> {
    return (await this.call("listMembers", { params: { groupId } }, MemberList)).items;
  }
  replaceMembers(groupId: string, members: Member[]): Promise<CloudGroup> {
    return this.call("replaceMembers", { params: { groupId }, body: { members } }, CloudGroup);
  }

  // ---- Budget alerts ----
  listAlerts(pageSize?: number): AsyncGenerator<BudgetAlert> {
    return this.paginate("listAlerts", BudgetAlertPage, pageSize);
  }
  createAlert(body: AlertInput): Promise<BudgetAlert> {
    return this.call("createAlert", { body }, BudgetAlert);
  }
  getAlert(alertId: string): Promise<BudgetAlert> {
    return this.call("getAlert", { params: { alertId } }, BudgetAlert);
  }
  replaceAlert(alertId: string, body: AlertInput): Promise<BudgetAlert> {
    return this.call("replaceAlert", { params: { alertId }, body }, BudgetAlert);
  }
  deleteAlert(alertId: string): Promise<undefined> {
    return this.call("deleteAlert", { params: { alertId } }, null);
  }

  // ---- Scheduled reports ----
  listReports(pageSize?: number): AsyncGenerator<ScheduledReport> {
    return this.paginate("listReports", ScheduledReportPage, pageSize);
  }
  createReport(body: ReportInput): Promise<ScheduledReport> {
    return this.call("createReport", { body }, ScheduledReport);
  }
  getReport(reportId: string): Promise<ScheduledReport> {
    return this.call("getReport", { params: { reportId } }, ScheduledReport);
  }
  replaceReport(reportId: string, body: ReportInput): Promise<ScheduledReport> {
    return this.call("replaceReport", { params: { reportId }, body }, ScheduledReport);
  }
  deleteReport(reportId: string): Promise<undefined> {
    return this.call("deleteReport", { params: { reportId } }, null);
  }

  // ---- Cost reads ----
  getCostSummary(query: CostQuery): Promise<CostSummary> {
    return this.call("getCostSummary", { query }, CostSummary);
  }
  getCostByService(query: CostQuery): Promise<CostByService> {
    return this.call("getCostByService", { query }, CostByService);
  }
  getCostByDay(query: CostQuery): Promise<CostByDay> {
    return this.call("getCostByDay", { query }, CostByDay);
  }
  getCostForecast(query: CostQuery): Promise<CostForecast> {
    return this.call("getCostForecast", { query }, CostForecast);
  }
  getCostComparison(query: CostQuery): Promise<CostComparison> {
    return this.call("getCostComparison", { query }, CostComparison);
  }
}

function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}

function queryString(query: CallInput["query"]): string {
  if (!query) return "";
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}
