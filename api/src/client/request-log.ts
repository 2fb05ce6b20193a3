/**
 * The request log (issue 38): one entry per HTTP attempt the client makes, API calls and token requests
 * alike, for the doors to route to their own log (the Pulumi engine's debug log; the Terraform provider
 * logs the same fields through tflog). It carries what identifies the attempt and its outcome, never a
 * header or a body: those hold the API token, the client secret, webhook URLs and the signing secret.
 */
export interface RequestLogEntry {
  method: string;
  /** The URL's path as sent, without the query (no secret goes in a path or a query of the API). */
  path: string;
  /** The query string without its `?` (filters, `limit`, the page `cursor`); absent when there is none. */
  query?: string;
  /** The answer's status; 0 when no answer arrived. */
  status: number;
  /** The service's `X-Request-Id` of the answer, to quote in support requests. */
  requestId?: string;
  /** 1 for the first attempt of a call, 2 and up for its retries. */
  attempt: number;
  /** How long the client waits before it tries again; absent when this attempt is the last. */
  retryInMs?: number;
  /** The answer is the saved first response of an earlier create with the same `Idempotency-Key`. */
  replay: boolean;
  /** Which page of a listing (1 for the first); absent outside listings. */
  page?: number;
  /** What failed when no answer arrived: the error's code or name, never its message. */
  error?: string;
}

/** Receives every entry; called synchronously on the request path, so it should hand the entry off and return. */
export type RequestLog = (entry: RequestLogEntry) => void;

/**
 * One entry as one line of `key=value` pairs, in the shape of the Terraform provider's tflog line
 * (`cloudcost API request: method=GET path=/api/v1/alerts status=200 …`): the same text in every door, so
 * one grep finds a request whichever door sent it.
 */
export function requestLogLine(e: RequestLogEntry): string {
  let line = `cloudcost API request: method=${e.method} path=${e.path}`;
  if (e.query !== undefined) line += ` query=${e.query}`;
  line += ` status=${e.status}`;
  if (e.requestId !== undefined) line += ` request_id=${e.requestId}`;
  line += ` attempt=${e.attempt} retry=${e.attempt > 1} replay=${e.replay}`;
  if (e.page !== undefined) line += ` page=${e.page}`;
  if (e.retryInMs !== undefined) line += ` retry_in_ms=${e.retryInMs}`;
  if (e.error !== undefined) line += ` error=${e.error}`;
  return line;
}
