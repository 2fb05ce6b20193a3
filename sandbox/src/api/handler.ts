import type { BodyOf, OperationId, ParamsOf, QueryOf, ResponseOf } from "@cloudcost/api/contract";
import type { SandboxContext } from "../service/context";

/**
 * One API call after the route's hooks (authentication, scope, rate limit) and validation against its
 * schemas: `params`, `query` and `body` are typed from the operation's zod schemas in the contract's table.
 */
export interface Call<Id extends OperationId> {
  ctx: SandboxContext;
  /** The organization of the authenticated principal. */
  orgId: string;
  params: ParamsOf<Id>;
  query: QueryOf<Id>;
  body: BodyOf<Id>;
  /** The `If-Match` header, for routes with ETags. */
  ifMatch: string | undefined;
}

/** What a handler answers with the route's success status: the operation's response body (none for 204). */
export type Outcome<Id extends OperationId> =
  ResponseOf<Id> extends undefined
    ? { body?: undefined }
    : {
        body: ResponseOf<Id>;
        /** Path (below the origin) of a created resource, sent as `Location`. */
        location?: string;
      };

/** Handlers are synchronous: the route wrapper runs each change in one SQLite transaction that commits before the response. */
export type Handler<Id extends OperationId> = (call: Call<Id>) => Outcome<Id>;

/** The logic of every operation of the contract's table; a missing or unknown operation does not compile. */
export type HandlerMap = { readonly [Id in OperationId]: Handler<Id> };

/** The handlers one route module contributes (`… satisfies ApiHandlers` types each from its operation). */
export type ApiHandlers = Partial<HandlerMap>;
