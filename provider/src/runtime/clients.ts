import { createHash } from "node:crypto";
import { CloudCostClient, type RequestLog } from "@cloudcost/api";
import type { ConfigLookup } from "./settings";
import { resolveSettings } from "./settings";

/** One client per (apiUrl, credentials) per process: all resources share its pools and cached OAuth token. */
const clients = new Map<string, CloudCostClient>();

let stackConfig: ConfigLookup = () => undefined;
let current: CloudCostClient | undefined;
let requestLog: RequestLog | undefined;

/**
 * Where the clients made from now on log each request (./engine-log); set once, when the door learns where
 * its log goes, before its first call. Clients made earlier are dropped so that none goes unlogged.
 */
export function logRequestsTo(log: RequestLog): void {
  requestLog = log;
  clients.clear();
  current = undefined;
}

/** Remembers the stack config the dynamic-provider host hands to `configure`. */
export function useStackConfig(config: ConfigLookup): void {
  stackConfig = config;
  current = undefined;
}

/** The shared client for the settings `config` resolves to; throws a SettingsError naming what is missing. */
export function clientFor(config: ConfigLookup): CloudCostClient {
  const settings = resolveSettings(config);
  // A digest keeps the map key short and free of credentials.
  const key = createHash("sha256").update(JSON.stringify(settings)).digest("hex");
  let client = clients.get(key);
  if (!client) {
    client = new CloudCostClient({ baseUrl: settings.apiUrl, auth: settings.auth, baseUrlSetting: settings.apiUrlSetting, requestLog });
    clients.set(key, client);
  }
  return client;
}

/**
 * The client for the stack config of the running dynamic-provider host. Resolved once per `configure`:
 * neither the config nor the host's environment changes while it runs, and resolving (a settings lookup
 * and a digest) on every call was measurable host CPU. Settings that fail to resolve are not remembered,
 * so every call reports them.
 */
export function currentClient(): CloudCostClient {
  return (current ??= clientFor(stackConfig));
}
