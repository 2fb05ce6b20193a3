/**
 * Every response header the service sends besides the transport's own (Content-Type, Content-Length,
 * Date, Connection, Keep-Alive, Transfer-Encoding). The OpenAPI document declares each one once, as a
 * reusable component named by the header, and every response refers to the ones it carries.
 */
export interface ResponseHeader {
  description: string;
  schema: { type: "string" | "integer"; enum?: string[]; minimum?: number; pattern?: string; format?: string };
}

export const RESPONSE_HEADERS = {
  "X-Request-Id": {
    description: "Identifies the request in the service log; a problem body repeats it as `requestId`. Quote it in support requests.",
    schema: { type: "string", pattern: "^req_[0-9a-z]+$" },
  },
  "RateLimit-Limit": {
    description: "Requests allowed per window for this token (draft-ietf-httpapi-ratelimit-headers); sent while rate limiting is on.",
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current window (draft-ietf-httpapi-ratelimit-headers).",
    schema: { type: "integer", minimum: 0 },
  },
  "RateLimit-Reset": {
    description: "Seconds until the window resets (draft-ietf-httpapi-ratelimit-headers).",
    schema: { type: "integer", minimum: 0 },
  },
  "Retry-After": { description: "Seconds to wait before retrying (RFC 9110 §10.2.3).", schema: { type: "integer", minimum: 0 } },
  "WWW-Authenticate": {
    description:
      'The challenge (RFC 9110 §11.6.1): `Bearer realm="cloudcost"` on the API, with `error="invalid_token"` or `error="insufficient_scope"` and `scope` when a token was sent (RFC 6750 §3); `Basic` on the OAuth endpoints\' `invalid_client` (RFC 6749 §5.2).',
    schema: { type: "string" },
  },
  Location: {
    description: "The created object or the started run, as an absolute path; on a redirect the target URL.",
    schema: { type: "string", format: "uri-reference" },
  },
  "Idempotent-Replayed": {
    description: "`true` when this is the saved first response to an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] },
  },
  ETag: {
    description: "Strong validator of the returned representation (RFC 9110 §8.8.3); on a 412 the current one. Send it back in `If-Match`.",
    schema: { type: "string", pattern: '^"[^"]*"$' },
  },
  "Cache-Control": {
    description: "`no-store` on tokens, errors and pages that carry secrets (RFC 6749 §5.1); `max-age=60` on discovery.",
    schema: { type: "string" },
  },
  Pragma: { description: "`no-cache`, for HTTP/1.0 caches (RFC 6749 §5.1).", schema: { type: "string", enum: ["no-cache"] } },
  "Set-Cookie": { description: "The CSRF secret of the consent form (HttpOnly, SameSite=Lax).", schema: { type: "string" } },
  "Content-Security-Policy": { description: "HTML pages load nothing and cannot be framed.", schema: { type: "string" } },
  "X-Frame-Options": { description: "`DENY`: HTML pages cannot be framed.", schema: { type: "string", enum: ["DENY"] } },
  "Referrer-Policy": {
    description: "`no-referrer`: links leave no trace of the page's query (codes, state).",
    schema: { type: "string", enum: ["no-referrer"] },
  },
  "X-Content-Type-Options": { description: "`nosniff`.", schema: { type: "string", enum: ["nosniff"] } },
} as const satisfies Record<string, ResponseHeader>;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;
