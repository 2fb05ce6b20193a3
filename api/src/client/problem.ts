import { Problem } from "../contract/common";
import { ApiError } from "./api-error";
import { parseJson } from "./json";
import { headerValue, type HttpResponse } from "./transport";

/** Turns an unsuccessful response into an ApiError carrying the RFC 9457 problem's type, title, detail, instance and field errors. */
export function errorFromResponse(response: HttpResponse, operation: string, attempts: number): ApiError {
  const requestId = headerValue(response.headers, "x-request-id");
  const problem = Problem.safeParse(parseJson(response.body));
  if (problem.success) {
    const p = problem.data;
    return new ApiError({
      status: response.status,
      type: p.type,
      title: p.title,
      detail: p.detail,
      instance: p.instance,
      errors: p.errors,
      requestId: p.requestId || requestId,
      operation,
      attempts,
    });
  }
  return new ApiError({ status: response.status, title: `HTTP ${response.status}`, requestId, operation, attempts });
}
