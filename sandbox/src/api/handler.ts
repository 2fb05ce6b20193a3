import type { SandboxContext } from "../service/context";

/** One API call after authentication and validation against the route's schemas. */
export interface Call {
  ctx: SandboxContext;
  orgId: string;
  /** Path parameters, validated by the route's `params` schema. */
  params: Readonly<Record<string, string>>;
  /** Output of the route's `query` schema (undefined when the route has none). */
  query: unknown;
  /** Output of the route's `body` schema (undefined when the route has none). */
  body: unknown;
  /** The `If-Match` header, for routes with ETags. */
  ifMatch: string | undefined;
}

/** What a handler answers: the route's success status unless `status` says otherwise; `body` undefined for 204. */
export interface Outcome {
  status?: number;
  body?: unknown;
  /** Path (below the origin) of a created resource, sent as `Location`. */
  location?: string;
}

/** Handlers are synchronous: the route wrapper runs each change in one SQLite transaction that commits before the response. */
export type Handler = (call: Call) => Outcome;
export type HandlerMap = Readonly<Record<string, Handler>>;

/** A path parameter the route's schema guarantees. */
export function param(call: Call, name: string): string {
  const value = call.params[name];
  if (value === undefined) throw new Error(`route has no path parameter ${name}`);
  return value;
}
