import { PROBLEM_TYPE_BASE, type FieldError } from "@cloudcost/api";

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
  ) {
    super(detail);
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
