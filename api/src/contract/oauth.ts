import { ALL_SCOPES, TrimmedName } from "./common";
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
    error: z.enum([
      "invalid_request",
      "invalid_client",
      "invalid_grant",
      "unauthorized_client",
      "unsupported_grant_type",
      "unsupported_response_type",
      "invalid_scope",
      "invalid_token",
      "invalid_client_metadata",
      "invalid_redirect_uri",
      "access_denied",
      "server_error",
    ]),
    error_description: z.string().optional(),
  })
  .openapi("OAuthError");
export type OAuthError = z.infer<typeof OAuthError>;

/** RFC 7636 §4.1: 43–128 characters of the unreserved set. */
const CodeVerifier = z.string().regex(/^[A-Za-z0-9\-._~]{43,128}$/, "must be 43-128 characters of [A-Za-z0-9-._~] (RFC 7636 §4.1)");

/** RFC 6749 §4.1.3 with RFC 7636 §4.5 `code_verifier`; public clients send `client_id`, confidential ones authenticate. */
export const AuthorizationCodeRequest = z
  .object({
    grant_type: z.literal("authorization_code"),
    code: z.string().min(1),
    redirect_uri: z.string().min(1),
    code_verifier: CodeVerifier,
    client_id: z.string().min(1).optional(),
    client_secret: z.string().min(1).optional(),
  })
  .openapi("AuthorizationCodeRequest");

/** RFC 6749 §6. */
export const RefreshTokenRequest = z
  .object({
    grant_type: z.literal("refresh_token"),
    refresh_token: z.string().min(1),
    scope: z.string().optional().openapi({ description: "space-separated; at most the scopes originally granted" }),
    client_id: z.string().min(1).optional(),
    client_secret: z.string().min(1).optional(),
  })
  .openapi("RefreshTokenRequest");

/** RFC 7009 §2.1 (RFC 7662 §2.1 has the same fields). */
export const TokenHintRequest = z
  .object({
    token: z.string().min(1),
    token_type_hint: z
      .string()
      .optional()
      .openapi({ description: "`access_token` or `refresh_token`; only a hint, every kind is searched" }),
    client_id: z.string().min(1).optional(),
    client_secret: z.string().min(1).optional(),
  })
  .openapi("TokenHintRequest");

/** RFC 7662 §2.2. An inactive token gets `{active: false}` and nothing else. */
export const IntrospectionResponse = z
  .object({
    active: z.boolean(),
    scope: z.string().optional(),
    client_id: z.string().optional(),
    username: z.string().optional(),
    token_type: z.literal("Bearer").optional(),
    exp: z.number().int().optional(),
    iat: z.number().int().optional(),
    sub: z.string().optional(),
    iss: z.string().optional(),
  })
  .openapi("IntrospectionResponse");
export type IntrospectionResponse = z.infer<typeof IntrospectionResponse>;

/** RFC 6749 §4.1.1 with RFC 7636 §4.3; `plain` is refused (S256 only). */
export const AuthorizationRequest = z.object({
  response_type: z.string().min(1),
  client_id: z.string().min(1),
  redirect_uri: z.string().min(1),
  scope: z.string().optional(),
  state: z.string().optional(),
  code_challenge: z.string().regex(/^[A-Za-z0-9\-_]{43}$/, "must be BASE64URL(SHA256(code_verifier)): 43 characters (RFC 7636 §4.2)"),
  code_challenge_method: z.literal("S256", "must be S256 (plain is not supported)"),
});
export type AuthorizationRequest = z.infer<typeof AuthorizationRequest>;

/** Open registration (RFC 7591) is rate limited per client address: this many a minute, then 429 (decision). */
export const CLIENT_REGISTRATIONS_PER_MINUTE = 30;
export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;
/** Space-separated scope names, any number of spaces between them (how the server splits them). */
const SCOPE_LIST_PATTERN = `^ *(${ALL_SCOPES.join("|")})( +(${ALL_SCOPES.join("|")}))* *$`;

/** RFC 7591 §2 metadata this server understands; public (PKCE) clients only. Unknown fields are ignored (§2). */
export const ClientRegistrationRequest = z
  .object({
    redirect_uris: z
      .array(
        z.string().openapi({
          // RFC 7591 §2: an array of redirection URI strings; the server parses each as an absolute URI.
          format: "uri",
          maxLength: MAX_REDIRECT_URI_LENGTH,
          pattern: "^[^#]*$",
          description:
            "an absolute URI without fragment (RFC 6749 §3.1.2): https, http only on loopback hosts (127.0.0.1, [::1], localhost), or a private-use scheme such as com.example.app (RFC 8252 §7)",
        }),
      )
      .min(1, "at least one redirect URI is required")
      .openapi({ maxItems: MAX_REDIRECT_URIS }),
    client_name: TrimmedName(100).optional(),
    scope: z
      .string()
      .optional()
      .openapi({ pattern: SCOPE_LIST_PATTERN, description: "space-separated scope names; defaults to every scope" }),
    token_endpoint_auth_method: z.literal("none", "must be none: only public clients register dynamically").optional(),
    grant_types: z.array(z.enum(["authorization_code", "refresh_token"], "only authorization_code and refresh_token")).optional(),
    response_types: z.array(z.literal("code", "only code")).optional(),
  })
  .openapi("ClientRegistrationRequest");
export type ClientRegistrationRequest = z.infer<typeof ClientRegistrationRequest>;

/** RFC 7591 §3.2.1. */
export const ClientRegistrationResponse = z
  .object({
    client_id: z.string(),
    client_id_issued_at: z.number().int(),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    scope: z.string(),
    token_endpoint_auth_method: z.literal("none"),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
  })
  .openapi("ClientRegistrationResponse");
export type ClientRegistrationResponse = z.infer<typeof ClientRegistrationResponse>;

/** RFC 8414 §2 (with RFC 9207 §3 `authorization_response_iss_parameter_supported`). */
export const AuthorizationServerMetadata = z
  .object({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    registration_endpoint: z.string(),
    revocation_endpoint: z.string(),
    introspection_endpoint: z.string(),
    scopes_supported: z.array(z.string()),
    response_types_supported: z.array(z.string()),
    response_modes_supported: z.array(z.string()),
    grant_types_supported: z.array(z.string()),
    code_challenge_methods_supported: z.array(z.string()),
    token_endpoint_auth_methods_supported: z.array(z.string()),
    revocation_endpoint_auth_methods_supported: z.array(z.string()),
    introspection_endpoint_auth_methods_supported: z.array(z.string()),
    authorization_response_iss_parameter_supported: z.boolean(),
  })
  .openapi("AuthorizationServerMetadata");
export type AuthorizationServerMetadata = z.infer<typeof AuthorizationServerMetadata>;
