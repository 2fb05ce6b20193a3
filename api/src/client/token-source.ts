import { OAuthError, TokenResponse } from "../contract/oauth";
import { ApiError } from "./api-error";
import { parseJson } from "./json";
import { headerValue, send, type HttpResponse, type TransportOptions } from "./transport";

/** Where bearer tokens come from. */
export interface TokenSource {
  /** A token to send now. */
  token(): Promise<string>;
  /** Called after a 401 for `token`; true when a fresh one can be fetched (the caller retries once). */
  invalidate(token: string): boolean;
}

/** An API token from the portal: sent as is, never refreshed. */
export class StaticTokenSource implements TokenSource {
  constructor(private readonly value: string) {}
  token(): Promise<string> {
    return Promise.resolve(this.value);
  }
  invalidate(): boolean {
    return false;
  }
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** `{auth_url}`: the origin serving `/oauth/token`. */
  authUrl: string;
  /** Space-separated scopes to ask for; default: everything the client may have. */
  scope?: string;
}

interface CachedToken {
  value: string;
  /** Epoch ms after which the token is fetched again (shortly before it expires). */
  refreshAt: number;
}

/** Seconds before `expires_in` runs out at which the token is renewed: 10% of the lifetime, at most 60 s. */
function refreshMargin(expiresIn: number): number {
  return Math.min(60, expiresIn / 10);
}

/**
 * OAuth 2.0 client credentials grant (RFC 6749 §4.4). The access token is fetched once and cached until
 * shortly before `expires_in`; concurrent callers share one in-flight request (single flight), and a 401
 * drops the cached token so the next caller fetches a new one.
 */
export class ClientCredentialsTokenSource implements TokenSource {
  private cached: CachedToken | undefined;
  private inFlight: Promise<CachedToken> | undefined;

  constructor(
    private readonly credentials: ClientCredentials,
    private readonly transport: TransportOptions,
  ) {}

  async token(): Promise<string> {
    if (this.cached && Date.now() < this.cached.refreshAt) return this.cached.value;
    this.inFlight ??= this.fetchToken().finally(() => (this.inFlight = undefined));
    this.cached = await this.inFlight;
    return this.cached.value;
  }

  invalidate(token: string): boolean {
    if (this.cached?.value === token) this.cached = undefined;
    return true;
  }

  private async fetchToken(): Promise<CachedToken> {
    const url = new URL("/oauth/token", this.credentials.authUrl);
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: this.credentials.clientId,
      client_secret: this.credentials.clientSecret,
    });
    if (this.credentials.scope) form.set("scope", this.credentials.scope);
    const started = Date.now();
    // Asking for another token is harmless, so the token request is retried like an idempotent one.
    const { response, attempts } = await send(
      {
        origin: url.origin,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form.toString(),
        idempotent: true,
        operation: "POST /oauth/token",
      },
      this.transport,
    );
    if (response.status !== 200) throw tokenError(response, attempts);
    const parsed = TokenResponse.safeParse(parseJson(response.body));
    if (!parsed.success)
      throw new ApiError({
        status: response.status,
        title: "token response did not match RFC 6749 §5.1",
        operation: "POST /oauth/token",
        attempts,
        cause: parsed.error,
      });
    const lifetime = parsed.data.expires_in - refreshMargin(parsed.data.expires_in);
    return { value: parsed.data.access_token, refreshAt: started + lifetime * 1000 };
  }
}

/** RFC 6749 §5.2 error response → ApiError naming the OAuth error code (the secret is never echoed). */
function tokenError(response: HttpResponse, attempts: number): ApiError {
  const oauth = OAuthError.safeParse(parseJson(response.body));
  const requestId = headerValue(response.headers, "x-request-id");
  if (oauth.success) {
    const hint = oauth.data.error === "invalid_client" ? "check cloudcost:clientId and cloudcost:clientSecret" : undefined;
    return new ApiError({
      status: response.status,
      title: `token request refused: ${oauth.data.error}`,
      detail: [oauth.data.error_description, hint].filter(Boolean).join("; ") || undefined,
      oauthError: oauth.data.error,
      requestId,
      operation: "POST /oauth/token",
      attempts,
    });
  }
  return new ApiError({ status: response.status, title: "token request failed", requestId, operation: "POST /oauth/token", attempts });
}
