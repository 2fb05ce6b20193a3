import type { ClientOptions } from "@cloudcost/api";
import { SETTINGS_ENV } from "@cloudcost/pulumi";

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
 * Client options from the policy's configuration, else the environment variables the provider reads
 * (`SETTINGS_ENV`: `CLOUDCOST_API_URL`, `CLOUDCOST_API_TOKEN`, …). `reason` says what is missing when no
 * client can be built.
 */
export function resolveApiSettings(config: ApiSettingsInput, env: NodeJS.ProcessEnv): { options: ClientOptions } | { reason: string } {
  const pick = (key: keyof typeof SETTINGS_ENV) => config[key] || env[SETTINGS_ENV[key]] || undefined;
  const baseUrl = pick("apiUrl");
  if (!baseUrl) return { reason: `no API location: set apiUrl in this policy's configuration or ${SETTINGS_ENV.apiUrl}` };
  const apiToken = pick("apiToken");
  const clientId = pick("clientId");
  const clientSecret = pick("clientSecret");
  const authUrl = pick("authUrl");
  const retry = { maxAttempts: 2 };
  // Named in an error when nothing, or something other than the API, answers there (issue 37).
  const baseUrlSetting = config.apiUrl ? "this policy's apiUrl" : `${SETTINGS_ENV.apiUrl} (this policy's apiUrl is not set)`;
  const common = { baseUrl, baseUrlSetting, timeoutMs: config.timeoutMs, retry };
  if (apiToken) return { options: { ...common, auth: { apiToken } } };
  if (clientId && clientSecret) return { options: { ...common, auth: { clientId, clientSecret, authUrl } } };
  return {
    reason:
      "no credentials: set CLOUDCOST_API_TOKEN, or CLOUDCOST_CLIENT_ID and CLOUDCOST_CLIENT_SECRET (or apiToken / clientId and clientSecret in this policy's configuration)",
  };
}
