/**
 * What the sandbox's server answers before any operation's own code runs — Node's HTTP parser and the hooks every
 * route of every document passes through (sandbox/src/http/server.ts) — so every operation of every document
 * (`/api/v1`, the OAuth server, the document itself) can answer it. api/src/openapi.ts adds these to each
 * operation it registers: one list, not one per route. Statuses of a part of the server (the API's token, scope,
 * rate limit and faults; a body-reading method's 413 and 415) are derived from the route table instead.
 */
export const SERVER_ANSWERS = {
  /** RFC 9110 §15.5.20: the `Host` is not a name the sandbox answers to (its DNS-rebinding defence). */
  421: "Misdirected request: the `Host` header names a host the sandbox does not answer to (a DNS-rebinding defence); use the address it prints at start-up or its `--public-url`",
  /** Node's parser refuses a head over 16 KiB before any route is chosen. */
  431: "Request headers too large (over 16 KiB); answered before routing, the connection is closed",
} as const;

export type ServerAnswer = keyof typeof SERVER_ANSWERS;
