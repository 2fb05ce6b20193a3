import type { ClientOptions } from "@cloudcost/api";

/** Where the forecast policy finds the API; each falls back to the provider's environment variable. */
export interface ApiSettingsInput {
  apiUrl?: string;
  authUrl?: string;
  apiToken?: string;
  clientId?: string;
  clientSecret?: string;
  timeoutMs: number;
}

/**
 * Client options from the policy's configuration, else the environment (`CLOUDCOST_API_URL`,
 * `CLOUDCOST_API_TOKEN`, `CLOUDCOST_CLIENT_ID`/`CLOUDCOST_CLIENT_SECRET`, `CLOUDCOST_AUTH_URL`: the same
 * names the provider reads). `reason` says what is missing when no client can be built.
 */
export function resolveApiSettings(config: ApiSettingsInput, env: NodeJS.ProcessEnv): { options: ClientOptions } | { reason: string } {
  const pick = (value: string | undefined, name: string) => value || env[name] || undefined;
  const baseUrl = pick(config.apiUrl, "CLOUDCOST_API_URL");
  if (!baseUrl) return { reason: "no API location: set apiUrl in this policy's configuration or CLOUDCOST_API_URL" };
  const apiToken = pick(config.apiToken, "CLOUDCOST_API_TOKEN");
  const clientId = pick(config.clientId, "CLOUDCOST_CLIENT_ID");
  const clientSecret = pick(config.clientSecret, "CLOUDCOST_CLIENT_SECRET");
  const authUrl = pick(config.authUrl, "CLOUDCOST_AUTH_URL");
  const retry = { maxAttempts: 2 };
  if (apiToken) return { options: { baseUrl, auth: { apiToken }, timeoutMs: config.timeoutMs, retry } };
  if (clientId && clientSecret) return { options: { baseUrl, auth: { clientId, clientSecret, authUrl }, timeoutMs: config.timeoutMs, retry } };
  return { reason: "no credentials: set CLOUDCOST_API_TOKEN, or CLOUDCOST_CLIENT_ID and CLOUDCOST_CLIENT_SECRET (or apiToken / clientId and clientSecret in this policy's configuration)" };
}
