import type { FieldError } from "../contract/common";

/** What went wrong with one call, as far as the client could tell. Never carries a token or secret. */
export interface ApiErrorInit {
  /** HTTP status; 0 when no response arrived (connection failure or timeout). */
  status: number;
  /** RFC 9457 §3.1.1 `type`: the URI that identifies the kind of problem (absent when no problem arrived). */
  type?: string;
  title: string;
  detail?: string;
  /** RFC 9457 §3.1.5 `instance`: the URI of this occurrence. */
  instance?: string;
  /** Field-level failures of a validation problem (RFC 9457 extension member `errors`). */
  errors?: FieldError[];
  /** The server's request id (`X-Request-Id`), to quote in support requests. */
  requestId?: string;
  /** RFC 6749 §5.2 `error` code when the OAuth token endpoint refused. */
  oauthError?: string;
  /** `METHOD path` of the call, with the path relative to the base URL. */
  operation: string;
  attempts: number;
  /** What the client caught: the transport failure or the schema mismatch (kept, never replaced). */
  cause?: unknown;
  /** Which setting points where and what answered there, when the failure is the URL's fault (./api-location). */
  where?: string;
}

/** An unsuccessful API call: an RFC 9457 problem response, an OAuth error, or a transport failure. */
export class ApiError extends Error implements Omit<ApiErrorInit, "cause"> {
  readonly status: number;
  readonly type?: string;
  readonly title: string;
  readonly detail?: string;
  readonly instance?: string;
  readonly errors?: FieldError[];
  readonly requestId?: string;
  readonly oauthError?: string;
  readonly operation: string;
  readonly attempts: number;
  readonly where?: string;
  readonly #init: ApiErrorInit;

  constructor(init: ApiErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "ApiError";
    this.status = init.status;
    this.type = init.type;
    this.title = init.title;
    this.detail = init.detail;
    this.instance = init.instance;
    this.errors = init.errors;
    this.requestId = init.requestId;
    this.oauthError = init.oauthError;
    this.operation = init.operation;
    this.attempts = init.attempts;
    this.where = init.where;
    this.#init = init;
  }

  /** The same failure, saying where the URL points and what answered there (./api-location). */
  relocated(where: string): ApiError {
    return new ApiError({ ...this.#init, where });
  }
}

function describe(e: ApiErrorInit): string {
  const parts = [`${e.operation}: ${e.status === 0 ? "" : `${e.status} `}${e.title}`];
  if (e.detail) parts.push(e.detail);
  if (e.errors?.length) parts.push(e.errors.map((f) => `${f.path}: ${f.message}`).join("; "));
  let text = parts.join(": ");
  if (e.requestId) text += ` (request id ${e.requestId})`;
  if (e.attempts > 1) text += ` after ${e.attempts} attempts`;
  if (e.where) text += `. ${e.where}`;
  return text;
}
