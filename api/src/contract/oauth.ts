import { z } from "./zod";

/** Access-token lifetime (decision): one hour unless the sandbox is started with another. */
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 3600;

/** RFC 6749 §4.4.2, form-encoded. Client auth may instead come as HTTP Basic (§2.3.1). */
export const ClientCredentialsRequest = z
  .object({
    grant_type: z.literal("client_credentials"),
    client_id: z.string().min(1).optional(),
    client_secret: z.string().min(1).optional(),
    scope: z.string().optional().openapi({ description: "space-separated; defaults to every scope the client may have" }),
  })
  .openapi("ClientCredentialsRequest");

/** RFC 6749 §5.1. */
export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().positive(),
    scope: z.string().openapi({ description: "space-separated scopes the token carries" }),
    refresh_token: z.string().optional(),
  })
  .openapi("TokenResponse");
export type TokenResponse = z.infer<typeof TokenResponse>;

/** RFC 6749 §5.2. */
export const OAuthError = z
  .object({
    error: z.enum(["invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope", "invalid_token", "invalid_client_metadata", "invalid_redirect_uri", "access_denied", "server_error"]),
    error_description: z.string().optional(),
  })
  .openapi("OAuthError");
export type OAuthError = z.infer<typeof OAuthError>;
