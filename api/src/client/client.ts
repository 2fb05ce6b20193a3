import { located, type ApiLocation } from "./api-location";
import type { ConnectedAccount, Member, Organization } from "../contract/account";
import type { CloudGroup, CreateGroup, UpdateGroup } from "../contract/cloud-group";
import type { GroupDraft, GroupDraftQuery } from "../contract/dry-run";
import type { Delivery, Event, EventType, SigningSecret } from "../contract/event";
import type { IdempotencyRecord } from "../contract/idempotency";
import {
  costQueryOf,
  type CostByDay,
  type CostByService,
  type CostComparison,
  type CostForecast,
  type CostReadRequest,
  type CostSummary,
} from "../contract/cost";
import {
  CRUD_RESOURCES,
  crudIds,
  routeById,
  type BodyInputOf,
  type CrudIds,
  type CrudNoun,
  type OperationId,
  type Operations,
  type ResponseOf,
  type Route,
} from "../contract/routes";
import type { z } from "../contract/zod";
import { ApiError } from "./api-error";
import { parseJson } from "./json";
import { errorFromResponse } from "./problem";
import { RatePacer } from "./rate-pacer";
import type { RequestLog } from "./request-log";
import { DEFAULT_RETRY, type RetryOptions } from "./retry-policy";
import { ClientCredentialsTokenSource, StaticTokenSource, type TokenSource } from "./token-source";
import { headerValue, newIdempotencyKey, send, type RequestEvent, type TransportOptions } from "./transport";

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
  /** Receives one entry per HTTP attempt (token requests too) for a log: method, path, query, status, request id… never headers or bodies (./request-log). */
  requestLog?: RequestLog;
  /**
   * Where `baseUrl` came from, e.g. `cloudcost:apiUrl`: a failure that is the URL's fault (nothing answers
   * there, or not the API) names it with the URL and what answered (./api-location).
   */
  baseUrlSetting?: string;
}

/** Query parameters; a list repeats its parameter (`?services=A&services=B`, OpenAPI `style: form, explode: true`). */
export type QueryValues = Record<string, string | number | readonly string[] | undefined>;

/** Path, query and body of one call, typed from the operation's schemas; path parameters fill the route's `{name}` placeholders. */
export type CallInput<Id extends OperationId> = (Operations[Id] extends { params: unknown }
  ? { params: Record<string, string> }
  : { params?: never }) &
  (Operations[Id] extends { query: unknown } ? { query?: QueryValues } : { query?: never }) &
  (Operations[Id] extends { body: unknown } ? { body: BodyInputOf<Id> } : { body?: never }) &
  (Operations[Id] extends { idempotent: true } ? CreateOptions : { idempotencyKey?: never });

/**
 * How a create is made recognisable. Without a key the client draws a fresh one per logical create (its
 * retries share it); a caller that can name the create itself — the provider derives one from the stack,
 * the resource's URN and its inputs — passes it, so a create repeated by another process after an
 * interruption gets the first object back (see the contract's `IdempotencyRecord`).
 */
export interface CreateOptions {
  idempotencyKey?: string;
  /** Called when the answer is the saved first response of an earlier request with the key (`Idempotent-Replayed: true`). */
  onReplay?: () => void;
}

interface UntypedInput extends CreateOptions {
  params?: Record<string, string>;
  query?: QueryValues;
  body?: unknown;
  /** Which page of a listing the call fetches (1 for the first), for the request log. */
  page?: number;
}

/**
 * The calls the client has for one `crud` resource of the table, named and typed from its operations:
 * `listAlerts(pageSize?)`, `createAlert(body)`, `getAlert(alertId)`, `replaceAlert(alertId, body)`,
 * `deleteAlert(alertId)`, `validateAlert(body, alertId?)` (likewise `…Report…`). They are installed on the prototype by the class's static
 * block, one definition for every such resource.
 */
export type CrudMethods<N extends CrudNoun, Ids extends CrudIds<N> = CrudIds<N>> = {
  [Id in Ids["list"]]: (pageSize?: number) => AsyncGenerator<Id extends PagedOperationId ? ItemOf<Id> : never>;
} & { [Id in Ids["create"]]: (body: BodyInputOf<Id>, options?: CreateOptions) => Promise<ResponseOf<Id>> } & {
  [Id in Ids["get"]]: (id: string) => Promise<ResponseOf<Id>>;
} & { [Id in Ids["replace"]]: (id: string, body: BodyInputOf<Id>) => Promise<ResponseOf<Id>> } & {
  [Id in Ids["delete"]]: (id: string) => Promise<ResponseOf<Id>>;
} & {
  /** Dry-run (issue 38): resolves when the create (or, with `id`, the replace) would be accepted; rejects with its ApiError otherwise. */
  [Id in Ids["validate"]]: (body: BodyInputOf<Id>, id?: string) => Promise<ResponseOf<Id>>;
};

/** Operations whose success body is a page of items (`{ items, nextCursor }`). */
type PagedOperationId = {
  [Id in OperationId]: ResponseOf<Id> extends { items: unknown[]; nextCursor?: unknown } ? Id : never;
}[OperationId];
type ItemOf<Id extends PagedOperationId> = ResponseOf<Id> extends { items: (infer T)[] } ? T : never;

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Typed client of `{base_url}`. Every call is keyed by the contract's `operationId`, so method, path,
 * idempotency and the response schema come from `routes.ts`. One instance can be shared by any number of
 * concurrent callers; the HTTP pools are shared per origin across instances.
 */
// The crud calls are declared here and defined once, generically, in the class's static block.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface CloudCostClient extends CrudMethods<"alert">, CrudMethods<"report"> {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class CloudCostClient {
  private readonly base: URL;
  private readonly location: ApiLocation;
  private readonly transport: TransportOptions;
  /** The API's transport: paced by the server's rate-limit headers, one budget per credentials. */
  private readonly apiTransport: TransportOptions;
  private readonly tokens: TokenSource;

  constructor(opts: ClientOptions) {
    this.base = new URL(opts.baseUrl.replace(/\/+$/, ""));
    this.location = { baseUrl: this.base.href, setting: opts.baseUrlSetting };
    this.transport = {
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: { ...DEFAULT_RETRY, ...opts.retry },
      onRequest: opts.onRequest,
      requestLog: opts.requestLog,
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
  async call<Id extends OperationId>(operationId: Id, input: CallInput<Id>): Promise<ResponseOf<Id>> {
    // The route's own response schema parsed the body: it is the operation's response type.
    return (await this.invoke(routeById(operationId), input)) as ResponseOf<Id>;
  }

  /** Every item of a paged list operation, following `nextCursor` until the last page; `filter` adds the operation's other query parameters. */
  async *paginate<Id extends PagedOperationId>(
    operationId: Id,
    pageSize = 200,
    filter: Record<string, string | undefined> = {},
  ): AsyncGenerator<ItemOf<Id>> {
    let cursor: string | undefined;
    let n = 0;
    do {
      const page = (await this.invoke(routeById(operationId), { query: { ...filter, limit: pageSize, cursor }, page: ++n })) as {
        items: ItemOf<Id>[];
        nextCursor?: string | null;
      };
      yield* page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  private async invoke(route: Route, input: UntypedInput): Promise<unknown> {
    const relative = fillPath(route.path, input.params ?? {});
    const path = `${this.base.pathname}${relative}${queryString(input.query)}`;
    const operation = `${route.method} ${relative}`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (input.body !== undefined) headers["content-type"] = "application/json";
    const idempotencyKey = route.idempotent === true;
    // Kept across every retry of this call, so a replayed create returns the first result.
    if (idempotencyKey) headers["idempotency-key"] = input.idempotencyKey ?? newIdempotencyKey();
    // Safe to repeat (RFC 9110 §9.2.2): GET, PUT, DELETE, the contract's PATCH (updateGroup sets absolute
    // values, so a repeat has the same effect), and a POST only when it carries an Idempotency-Key. The
    // dry-runs (`…:validate`) would be safe too, but are sent once: their callers (plan, preview) carry on
    // without an answer, so a service out of reach should cost one attempt, not a round of back-offs.
    const idempotent = route.method !== "POST" || idempotencyKey;
    const request = {
      origin: this.base.origin,
      path,
      method: route.method,
      headers,
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      idempotent,
      operation,
      page: input.page,
    };

    const sent = (token: string) =>
      send({ ...request, headers: { ...headers, authorization: `Bearer ${token}` } }, this.apiTransport).catch((e: unknown) => {
        throw located(e, this.location);
      });
    let token = await this.tokens.token();
    let outcome = await sent(token);
    // One refresh on 401: the token expired or was revoked since it was cached (RFC 6750 §3.1).
    if (outcome.response.status === 401 && this.tokens.invalidate(token)) {
      token = await this.tokens.token();
      outcome = await sent(token);
    }
    const { response, attempts } = outcome;
    if (response.status !== route.status) throw located(errorFromResponse(response, operation, attempts), this.location, response);
    if (headerValue(response.headers, "idempotent-replayed") === "true") input.onReplay?.();
    const schema: z.ZodType | null = route.response;
    if (schema === null) return undefined;
    const parsed = schema.safeParse(parseJson(response.body));
    if (!parsed.success)
      throw located(
        new ApiError({
          status: response.status,
          title: "response did not match the API contract",
          detail: parsed.error.issues[0]?.message,
          operation,
          attempts,
          cause: parsed.error,
        }),
        this.location,
        response,
      );
    return parsed.data;
  }

  // ---- Accounts ----
  /** The organization these credentials belong to. */
  getOrganization(): Promise<Organization> {
    return this.call("getOrganization", {});
  }
  listAccounts(): AsyncGenerator<ConnectedAccount> {
    return this.paginate("listAccounts");
  }

  // ---- Cloud Groups ----
  listGroups(pageSize?: number): AsyncGenerator<CloudGroup> {
    return this.paginate("listGroups", pageSize);
  }
  createGroup(body: CreateGroup, options: CreateOptions = {}): Promise<CloudGroup> {
    return this.call("createGroup", { body, ...options });
  }
  getGroup(groupId: string): Promise<CloudGroup> {
    return this.call("getGroup", { params: { groupId } });
  }
  updateGroup(groupId: string, body: UpdateGroup): Promise<CloudGroup> {
    return this.call("updateGroup", { params: { groupId }, body });
  }
  deleteGroup(groupId: string): Promise<undefined> {
    return this.call("deleteGroup", { params: { groupId } });
  }
  async listMembers(groupId: string): Promise<Member[]> {
    return (await this.call("listMembers", { params: { groupId } })).items;
  }
  replaceMembers(groupId: string, members: Member[]): Promise<CloudGroup> {
    return this.call("replaceMembers", { params: { groupId }, body: { members } });
  }
  /**
   * Dry-run of a whole group (issue 38): its create — or, with `of`, the change of the group with that id or
   * current name — and its member set. Resolves when both would be accepted; rejects with the ApiError the
   * real requests would get otherwise. Writes nothing.
   */
  validateGroup(draft: GroupDraft, of: GroupDraftQuery = {}): Promise<undefined> {
    return this.call("validateGroup", { body: draft, query: { groupId: of.groupId, currentName: of.currentName } });
  }

  // ---- Budget alerts and scheduled reports: the calls of each `crud` resource of the table ----
  static {
    for (const [noun, idName] of Object.entries(CRUD_RESOURCES) as [CrudNoun, string][]) {
      const ids = crudIds(noun);
      const byId = (id: string) => ({ params: { [idName]: id } });
      const methods: { [M in keyof CrudIds<CrudNoun>]: (this: CloudCostClient, ...args: never[]) => unknown } = {
        list(pageSize?: number) {
          return this.paginate(ids.list, pageSize);
        },
        create(body: unknown, options: CreateOptions = {}) {
          return this.invoke(routeById(ids.create), { body, ...options });
        },
        get(id: string) {
          return this.invoke(routeById(ids.get), byId(id));
        },
        replace(id: string, body: unknown) {
          return this.invoke(routeById(ids.replace), { ...byId(id), body });
        },
        delete(id: string) {
          return this.invoke(routeById(ids.delete), byId(id));
        },
        validate(body: unknown, id?: string) {
          return this.invoke(routeById(ids.validate), { body, query: { [idName]: id } });
        },
      };
      // Installed as class methods are: on the prototype, not enumerable.
      for (const [kind, method] of Object.entries(methods))
        Object.defineProperty(this.prototype, ids[kind as keyof CrudIds<CrudNoun>], { value: method, writable: true, configurable: true });
    }
  }

  // ---- Events ----
  /** The organization's events, newest first; `type` keeps one kind. */
  listEvents(options: { type?: EventType; pageSize?: number } = {}): AsyncGenerator<Event> {
    return this.paginate("listEvents", options.pageSize, { type: options.type });
  }
  getEvent(eventId: string): Promise<Event> {
    return this.call("getEvent", { params: { eventId } });
  }
  /** One delivery per e-mail recipient and per webhook URL, each with its attempts. */
  async listDeliveries(eventId: string): Promise<Delivery[]> {
    return (await this.call("listDeliveries", { params: { eventId } })).items;
  }
  /** Queues one more webhook attempt (same `webhook-id`); resolves with the webhook delivery. */
  redeliverEvent(eventId: string): Promise<Delivery> {
    return this.call("redeliverEvent", { params: { eventId } });
  }
  /** The organization's Standard Webhooks signing secret (`whsec_…`); needs the `write` scope. */
  getWebhookSigningSecret(): Promise<SigningSecret> {
    return this.call("getWebhookSigningSecret", {});
  }
  /** A new signing secret; for 24 h webhooks carry the previous signature too. */
  rotateWebhookSigningSecret(): Promise<SigningSecret> {
    return this.call("rotateWebhookSigningSecret", {});
  }

  // ---- Idempotency keys ----
  /** The organization's remembered `Idempotency-Key`s beginning with `prefix` (all without), oldest first. */
  listIdempotencyKeys(prefix?: string, pageSize?: number): AsyncGenerator<IdempotencyRecord> {
    return this.paginate("listIdempotencyKeys", pageSize, { prefix });
  }

  // ---- Cost reads: a window, an optional Cloud Group and the filters alerts and reports take ----
  async getCostSummary(request: CostReadRequest): Promise<CostSummary> {
    return this.call("getCostSummary", { query: costQueryOf(request) });
  }
  async getCostByService(request: CostReadRequest): Promise<CostByService> {
    return this.call("getCostByService", { query: costQueryOf(request) });
  }
  async getCostByDay(request: CostReadRequest): Promise<CostByDay> {
    return this.call("getCostByDay", { query: costQueryOf(request) });
  }
  async getCostForecast(request: CostReadRequest): Promise<CostForecast> {
    return this.call("getCostForecast", { query: costQueryOf(request) });
  }
  async getCostComparison(request: CostReadRequest): Promise<CostComparison> {
    return this.call("getCostComparison", { query: costQueryOf(request) });
  }
}

function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(value);
  });
}

function queryString(query: QueryValues | undefined): string {
  if (!query) return "";
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (Array.isArray(v)) for (const item of v as readonly string[]) q.append(k, item);
    else if (v !== undefined) q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}
