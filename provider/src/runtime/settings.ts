import type { ClientAuth } from "@cloudcost/api";

/** Everything needed to reach the API; resolved at run time, never captured in `__provider`. */
export interface Settings {
  apiUrl: string;
  auth: ClientAuth;
}

/** Looks a `cloudcost:` key up in the stack config; undefined when it is not set. */
export type ConfigLookup = (key: string) => string | undefined;

/** Stack config key (`cloudcost:<key>`) → its environment fallback; the policy pack reads the same names. */
export const SETTINGS_ENV = {
  apiUrl: "CLOUDCOST_API_URL",
  authUrl: "CLOUDCOST_AUTH_URL",
  apiToken: "CLOUDCOST_API_TOKEN",
  clientId: "CLOUDCOST_CLIENT_ID",
  clientSecret: "CLOUDCOST_CLIENT_SECRET",
} as const;
type SettingKey = keyof typeof SETTINGS_ENV;

/** A missing or contradictory setting; the message names the config key and the environment variable. */
export class SettingsError extends Error {
  override readonly name = "SettingsError";
}

function lookup(config: ConfigLookup, key: SettingKey): string | undefined {
  const value = config(key) ?? process.env[SETTINGS_ENV[key]];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

const both = (key: SettingKey) => `cloudcost:${key} (or ${SETTINGS_ENV[key]})`;

/**
 * Stack config first, then `CLOUDCOST_*` environment variables. An API token wins over client
 * credentials when both are set. `authUrl` defaults to the origin of `apiUrl`.
 */
export function resolveSettings(config: ConfigLookup): Settings {
  const apiUrl = lookup(config, "apiUrl");
  if (!apiUrl) throw new SettingsError(`${both("apiUrl")} is not set: it is the API base URL ending in /api/v1`);
  let origin: string;
  try {
    origin = new URL(apiUrl).origin;
  } catch (error) {
    throw new SettingsError(`${both("apiUrl")} is not an absolute URL`, { cause: error });
  }
  const apiToken = lookup(config, "apiToken");
  if (apiToken) return { apiUrl, auth: { apiToken } };
  const clientId = lookup(config, "clientId");
  const clientSecret = lookup(config, "clientSecret");
  if (clientId && clientSecret) return { apiUrl, auth: { clientId, clientSecret, authUrl: lookup(config, "authUrl") ?? origin } };
  if (clientId) throw new SettingsError(`${both("clientSecret")} is not set (needed with ${both("clientId")})`);
  throw new SettingsError(`no credentials: set ${both("apiToken")}, or ${both("clientId")} and ${both("clientSecret")}`);
}
