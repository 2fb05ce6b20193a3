import { randomUUID } from "node:crypto";
import { ApiError } from "./api-error";
import { dispatcherFor } from "./pools";
import type { RatePacer } from "./rate-pacer";
import type { RequestLog } from "./request-log";
import {
  backoffDelay,
  exceedsBodyLimit,
  isRetryableStatus,
  isTransientNetworkError,
  parseRetryAfter,
  type RetryOptions,
} from "./retry-policy";

export interface HttpRequest {
  /** `https://host:port` */
  origin: string;
  /** Absolute path with query string. */
  path: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers: Record<string, string>;
  body?: string;
  /** May this request be repeated after a 5xx or a connection error? */
  idempotent: boolean;
  /** `METHOD path` for errors and events. */
  operation: string;
  /** Which page of a listing this request fetches (1 for the first), for the request log. */
  page?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP attempt as seen by `onRequest` observers (tests and benchmarks count these). */
export interface RequestEvent {
  operation: string;
  method: string;
  /** 0 when the attempt failed without a response. */
  status: number;
  attempt: number;
}

export interface TransportOptions {
  /** Bound on one attempt, from sending to the last body byte. */
  timeoutMs: number;
  retry: RetryOptions;
  onRequest?: (e: RequestEvent) => void;
  /** Paces requests by the server's RateLimit-* headers (one per identity); none for the token endpoint. */
  pacer?: RatePacer;
  /** Receives one entry per attempt (./request-log); when absent nothing is built for it. */
  requestLog?: RequestLog;
}

export function headerValue(h: HttpResponse["headers"], name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A fresh `Idempotency-Key` value for one logical create, reused by all of its retries. */
export function newIdempotencyKey(): string {
  return randomUUID();
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One attempt, bounded by `timeoutMs` from sending to the last body byte. A controller and a timer that is
 * cleared when the body is in, rather than `AbortSignal.timeout`: that one's weakly held signal and
 * unclearable timer cost measurable CPU on every request (issue 16 item 3); the abort reason is the same
 * `TimeoutError` DOMException.
 */
async function attemptOnce(req: HttpRequest, timeoutMs: number): Promise<HttpResponse> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")), timeoutMs);
  timer.unref();
  try {
    const res = await dispatcherFor(req.origin).request({
      origin: req.origin,
      path: req.path,
      method: req.method,
      headers: req.headers,
      body: req.body ?? null,
      signal: controller.signal,
    });
    const body = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends with bounded retries: 429 for any method (waiting out `Retry-After`, RFC 6585 §4), 5xx and
 * connection errors only when `req.idempotent` (and not for a body over the API's limit, which no attempt
 * can get accepted). Resolves with the final response, whatever its status;
 * rejects with an {@link ApiError} of status 0 when no response arrived.
 */
export async function send(req: HttpRequest, opts: TransportOptions): Promise<{ response: HttpResponse; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    let response: HttpResponse;
    await opts.pacer?.acquire();
    try {
      response = await attemptOnce(req, opts.timeoutMs);
    } catch (err) {
      opts.pacer?.release(0, () => undefined);
      opts.onRequest?.({ operation: req.operation, method: req.method, status: 0, attempt });
      const retry = req.idempotent && isTransientNetworkError(err) && !exceedsBodyLimit(req.body) && attempt < opts.retry.maxAttempts;
      const delay = retry ? backoffDelay(attempt, opts.retry) : undefined;
      if (opts.requestLog) logFailedAttempt(opts.requestLog, req, err, attempt, delay);
      if (delay === undefined) throw networkError(req, err, attempt);
      await sleep(delay);
      continue;
    }
    opts.pacer?.release(response.status, (name) => headerValue(response.headers, name));
    opts.onRequest?.({ operation: req.operation, method: req.method, status: response.status, attempt });
    const delay = retryDelay(req, response, attempt, opts.retry, opts.pacer !== undefined);
    if (opts.requestLog) logAttempt(opts.requestLog, req, response, attempt, delay);
    if (delay === undefined) return { response, attempts: attempt };
    await sleep(delay);
  }
}

function logAttempt(log: RequestLog, req: HttpRequest, response: HttpResponse, attempt: number, retryInMs: number | undefined): void {
  log({
    ...pathAndQuery(req.path),
    method: req.method,
    status: response.status,
    requestId: headerValue(response.headers, "x-request-id"),
    attempt,
    retryInMs,
    replay: headerValue(response.headers, "idempotent-replayed") === "true",
    page: req.page,
  });
}

function logFailedAttempt(log: RequestLog, req: HttpRequest, err: unknown, attempt: number, retryInMs: number | undefined): void {
  // The code (ECONNREFUSED) or name (TimeoutError) only: a message may quote more than the log should hold.
  const { name, code } = (typeof err === "object" && err !== null ? err : {}) as { name?: unknown; code?: unknown };
  log({
    ...pathAndQuery(req.path),
    method: req.method,
    status: 0,
    attempt,
    retryInMs,
    replay: false,
    page: req.page,
    error: String(code ?? name ?? "Error"),
  });
}

function pathAndQuery(path: string): { path: string; query?: string } {
  const at = path.indexOf("?");
  return at < 0 ? { path } : { path: path.slice(0, at), query: path.slice(at + 1) };
}

/** How long to wait before the next attempt, or undefined to stop and hand back `response`. */
function retryDelay(req: HttpRequest, response: HttpResponse, attempt: number, retry: RetryOptions, paced: boolean): number | undefined {
  if (!isRetryableStatus(response.status, req.idempotent) || attempt >= retry.maxAttempts) return undefined;
  const after = parseRetryAfter(headerValue(response.headers, "retry-after"));
  if (after === undefined) return backoffDelay(attempt, retry);
  if (after > retry.maxRetryAfterMs) return undefined;
  // A rate-limit refusal the pacer has read: it holds the next attempt until the window it named begins
  // (to the millisecond, where whole-second Retry-After would oversleep), so no extra wait here.
  return paced && response.status === 429 && headerValue(response.headers, "ratelimit-reset") !== undefined ? 0 : after;
}

function networkError(req: HttpRequest, err: unknown, attempts: number): ApiError {
  const { name, code, message } = (typeof err === "object" && err !== null ? err : {}) as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
  };
  const timedOut = name === "TimeoutError";
  return new ApiError({
    status: 0,
    title: timedOut ? "request timed out" : "connection failed",
    detail: timedOut ? undefined : `${String(code ?? message ?? err)} (${req.origin})`,
    operation: req.operation,
    attempts,
    cause: err,
  });
}
