import type { ClientAuth } from "@cloudcost/api";
import { normaliseApiUrl } from "./api-url";
import { SETTINGS_ENV } from "./settings-env";

/** Everything needed to reach the API; resolved at run time, never captured in `__provider`. */
export interface Settings {
  apiUrl: string;
  /** Where `apiUrl` came from, for messages about what it points at: `cloudcost:apiUrl`, or its environment variable. */
  apiUrlSetting: string;
  auth: ClientAuth;
}

/** Looks a `cloudcost:` key up in the stack config; undefined when it is not set. */
export type ConfigLookup = (key: string) => string | undefined;

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
  const apiUrl = checkedApiUrl(config);
  if (!apiUrl) throw new SettingsError(`${both("apiUrl")} is not set: it is the API base URL ending in /api/v1`);
  const origin = new URL(apiUrl).origin;
  const apiUrlSetting = config("apiUrl")?.trim() ? "cloudcost:apiUrl" : `${SETTINGS_ENV.apiUrl} (cloudcost:apiUrl is not set)`;
  const apiToken = lookup(config, "apiToken");
  if (apiToken) return { apiUrl, apiUrlSetting, auth: { apiToken } };
  const clientId = lookup(config, "clientId");
  const clientSecret = lookup(config, "clientSecret");
  if (clientId && clientSecret)
    return { apiUrl, apiUrlSetting, auth: { clientId, clientSecret, authUrl: lookup(config, "authUrl") ?? origin } };
  if (clientId)
    throw new SettingsError(
      "cloudcost:clientId is set, so cloudcost:clientSecret is needed too: set it with `pulumi config set --secret cloudcost:clientSecret VALUE`, or CLOUDCOST_CLIENT_SECRET",
    );
  throw new SettingsError(`no credentials: set ${both("apiToken")}, or ${both("clientId")} and ${both("clientSecret")}`);
}

/**
 * `apiUrl` normalised (see ./api-url), or undefined when it is not set. `configure` calls this so a wrong URL
 * fails before any request, with the value to set, instead of as a 404 or 403 from the wrong endpoint.
 */
export function checkedApiUrl(config: ConfigLookup): string | undefined {
  const apiUrl = lookup(config, "apiUrl");
  if (!apiUrl) return undefined;
  try {
    return normaliseApiUrl(apiUrl, both("apiUrl"));
  } catch (error) {
    throw new SettingsError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}
