import {
  ALL_SCOPES,
  CLIENT_REGISTRATIONS_PER_MINUTE,
  ClientRegistrationRequest,
  type ClientRegistrationResponse,
  type Scope,
} from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import type { SandboxContext } from "../service/context";
import type { ClientRecord } from "../identity/credentials";
import { AttemptLimiter, takeAttempt } from "../identity/attempt-limiter";
import { noStore, sendOAuthError } from "./error-response";
import { OAuthFailure } from "../errors";
import { MAX_REDIRECT_URIS, redirectUriProblem } from "./redirect-uri";
import { knownScopes } from "./scope";

/** Open registration is rate limited per client address (the contract's CLIENT_REGISTRATIONS_PER_MINUTE)… */
const REGISTRATION_WINDOW_MS = 60_000;
/** …and the number of registered clients is bounded, so nobody can grow the database without limit. */
export const MAX_PUBLIC_CLIENTS = 10_000;

function registrationResponse(client: ClientRecord): ClientRegistrationResponse {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    scope: client.scopes.join(" "),
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
  };
}

/** Validates RFC 7591 §2 metadata; failures are `invalid_redirect_uri` or `invalid_client_metadata` (§3.2.2). */
function validMetadata(body: unknown): { name: string; redirectUris: string[]; scopes: Scope[] } {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new OAuthFailure("invalid_client_metadata", "the request body must be a JSON object of client metadata");
  const parsed = ClientRegistrationRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join(".");
    throw new OAuthFailure(
      issue.path[0] === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata",
      `${field}: ${issue.message}`,
    );
  }
  const meta = parsed.data;
  if (meta.redirect_uris.length > MAX_REDIRECT_URIS)
    throw new OAuthFailure("invalid_redirect_uri", `at most ${MAX_REDIRECT_URIS} redirect URIs`);
  const problem = meta.redirect_uris.map(redirectUriProblem).find((p) => p !== undefined);
  if (problem) throw new OAuthFailure("invalid_redirect_uri", problem);
  const scopes = meta.scope === undefined ? [...ALL_SCOPES] : knownScopes(meta.scope);
  if (!scopes) throw new OAuthFailure("invalid_client_metadata", `scope: must be space-separated names from: ${ALL_SCOPES.join(" ")}`);
  return { name: meta.client_name ?? "Unnamed application", redirectUris: [...new Set(meta.redirect_uris)], scopes };
}

/**
 * `POST /oauth/register` (RFC 7591): open dynamic registration of public PKCE clients, so compatible
 * clients and agents need no manual setup (spec: Authorization code with PKCE). 201 with the metadata
 * as registered; confidential clients are created in the portal instead.
 */
export function registerRegistrationEndpoint(app: FastifyInstance, ctx: SandboxContext): void {
  const perAddress = new AttemptLimiter(CLIENT_REGISTRATIONS_PER_MINUTE, REGISTRATION_WINDOW_MS);
  app.post("/oauth/register", async (request, reply) => {
    const wait = takeAttempt([[perAddress, request.ip]]);
    if (wait > 0) {
      reply.header("retry-after", String(wait));
      return sendOAuthError(
        reply,
        new OAuthFailure("invalid_request", `too many registrations from this address; retry in ${wait} seconds`),
        429,
      );
    }
    if (!/^application\/json\b/i.test(request.headers["content-type"] ?? ""))
      throw new OAuthFailure("invalid_client_metadata", "the request body must be application/json");
    const client = ctx.credentials.registerPublicClient(validMetadata(request.body), MAX_PUBLIC_CLIENTS);
    if (!client)
      throw new OAuthFailure(
        "invalid_client_metadata",
        `the sandbox already holds ${MAX_PUBLIC_CLIENTS} registered clients; start from a fresh data folder`,
      );
    return noStore(reply).code(201).send(registrationResponse(client));
  });
}
