import { PROBLEM_TYPE_BASE, type FieldError, type OAuthError } from "@cloudcost/api/contract";

// The sandbox's one error module: every error a request or a command can end in is defined here.

/**
 * A failure a client caused or can act on. The HTTP layer turns it into an RFC 9457 problem
 * (`type` = PROBLEM_TYPE_BASE + `slug`); the portal and the CLI show its message.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly title: string,
    detail: string,
    readonly errors?: FieldError[],
    readonly headers: Readonly<Record<string, string>> = {},
    /** What was caught, kept for the log (`cause`); never sent to the client. */
    options?: ErrorOptions,
  ) {
    super(detail, options);
    this.name = "ServiceError";
  }

  get type(): string {
    return `${PROBLEM_TYPE_BASE}${this.slug}`;
  }
}

export function invalidRequest(detail: string, errors: FieldError[]): ServiceError {
  return new ServiceError(400, "validation", "Invalid request", detail, errors);
}

export function notFound(detail: string, errors?: FieldError[]): ServiceError {
  return new ServiceError(404, "not-found", "Not found", detail, errors);
}

export function conflict(detail: string, errors?: FieldError[]): ServiceError {
  return new ServiceError(409, "conflict", "Conflict", detail, errors);
}

export function unprocessable(detail: string, errors: FieldError[]): ServiceError {
  return new ServiceError(422, "unprocessable", "Unprocessable content", detail, errors);
}

/** RFC 6749 §5.2 / RFC 7591 §3.2.2 error codes. */
export type OAuthErrorCode = OAuthError["error"];

/** An RFC 6749 §5.2 (or RFC 7591 §3.2.2) error a handler throws; `sendOAuthError` turns it into the response. */
export class OAuthFailure extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    options?: ErrorOptions,
  ) {
    super(description, options);
  }

  /** RFC 6749 §5.2: 401 for failed client authentication, 400 for everything else. */
  get status(): 400 | 401 {
    return this.code === "invalid_client" ? 401 : 400;
  }
}

/** Failures reported to the user agent, not the client: redirecting would go to an unverified URI (RFC 6749 §4.1.2.1). */
export class UntrustedRedirect extends Error {}

/** A failure reported to the client by redirecting to its (verified) redirect URI. */
export class AuthorizationFailure extends Error {
  constructor(
    readonly failure: OAuthFailure,
    readonly redirectUri: string,
    readonly state: string | undefined,
  ) {
    super(failure.description, { cause: failure });
  }
}

/** A command line the sandbox cannot run: one line on stderr and exit code 2. */
export class UsageError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UsageError";
  }
}
