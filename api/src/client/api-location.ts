import { ApiError } from "./api-error";
import { headerValue, type HttpResponse } from "./transport";

/**
 * Issue 37 §4: a failure that is the URL's fault, not the call's — nothing answers there, or something that
 * is not the API does — says which setting points where and what answered there ("GET /accounts: connection
 * failed … after 8 attempts" named neither the host nor the setting to change).
 */
export interface ApiLocation {
  /** The base URL the client calls. */
  baseUrl: string;
  /** Where it came from, e.g. `cloudcost:apiUrl` or `CLOUDCOST_API_URL (cloudcost:apiUrl is not set)`. */
  setting?: string;
}

const isJson = (contentType: string | undefined) =>
  /^application\/([\w.+-]+\+)?json\s*(;|$)|^application\/problem\+json/i.test(contentType ?? "");

/** "a 200 text/html response" */
function answer(response: HttpResponse): string {
  const media = headerValue(response.headers, "content-type")?.split(";")[0]?.trim() || "untyped";
  return `a ${response.status} ${media} response`;
}

/**
 * ERR with where the URL came from and what answered there, when the failure is the URL's fault: a transport
 * failure (status 0), or an answer that is not the API's (not JSON, or not a problem+json refusal and not the
 * contract's body). Any other error is returned as it is.
 */
export function located(err: unknown, at: ApiLocation, response?: HttpResponse): unknown {
  if (!(err instanceof ApiError) || err.where !== undefined) return err;
  const where = `${at.setting ?? "the API URL"} is ${at.baseUrl}`;
  // The transport's reason (ECONNREFUSED, ENOTFOUND, a timeout) is already in the message.
  if (err.status === 0)
    return err.relocated(`${where}: no server answered there; check the host and port, and that the service is running`);
  if (response === undefined) return err;
  if (!isJson(headerValue(response.headers, "content-type")))
    return err.relocated(
      `${where}: what answered there is not the cloudcost API (${answer(response)}; the API answers JSON under /api/v1)`,
    );
  if (err.type === undefined)
    return err.relocated(`${where}: what answered there did not answer as the cloudcost API does (${answer(response)})`);
  return err;
}
