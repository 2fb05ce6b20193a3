import type { Dispatcher, EnvHttpProxyAgent, Pool } from "undici";
import { isLoopbackHostname } from "../contract/loopback";

/**
 * undici, required at the first request rather than when the package loads: most processes that load the client never
 * send one (a Pulumi program that only declares resources, a provider host asked only to check and diff), and loading
 * undici costs each of them ~0.08 CPU s (issue 39: a CI run starts ~1,000 such processes).
 */
const undici = (): typeof import("undici") => require("undici") as typeof import("undici");

/** Connections per origin; enough for Pulumi's default parallelism with room for cost reads. */
const CONNECTIONS_PER_ORIGIN = 32;
const KEEP_ALIVE_MS = 10_000;

const pools = new Map<string, Pool>();
/** One proxy agent per proxy setting (HTTP_PROXY, HTTPS_PROXY, NO_PROXY). */
const proxyAgents = new Map<string, EnvHttpProxyAgent>();

/** The process-wide keep-alive pool for an origin, shared by every client that talks to it. */
function poolFor(origin: string): Pool {
  let pool = pools.get(origin);
  if (!pool || pool.closed || pool.destroyed) {
    pool = new (undici().Pool)(origin, { connections: CONNECTIONS_PER_ORIGIN, keepAliveTimeout: KEEP_ALIVE_MS, pipelining: 1 });
    pools.set(origin, pool);
  }
  return pool;
}

type ProxySetting = { http?: string; https?: string; no?: string };
/** Read once (as Go's ProxyFromEnvironment does): `process.env` lookups on every request cost measurable CPU. */
let cachedSetting: ProxySetting | null | undefined;

/** The proxy variables as curl and most CLIs read them: upper case first, then lower case; null when none is set. */
function proxySetting(): ProxySetting | null {
  if (cachedSetting !== undefined) return cachedSetting;
  const env = (name: string) => process.env[name.toUpperCase()] || process.env[name] || undefined;
  const setting = { http: env("http_proxy"), https: env("https_proxy"), no: env("no_proxy") };
  return (cachedSetting = setting.http || setting.https ? setting : null);
}

/**
 * What sends a request to `origin`: through the proxy that HTTP_PROXY / HTTPS_PROXY name (NO_PROXY
 * excepted, undici's EnvHttpProxyAgent), or straight to the origin's keep-alive pool. Loopback origins
 * (the local sandbox) never go through a proxy, as Go's ProxyFromEnvironment does: a corporate proxy
 * cannot reach this machine's 127.0.0.1.
 */
export function dispatcherFor(origin: string): Dispatcher {
  const setting = proxySetting();
  if (!setting || isLoopbackHostname(new URL(origin).hostname)) return poolFor(origin);
  const key = JSON.stringify(setting);
  let agent = proxyAgents.get(key);
  if (!agent) {
    agent = new (undici().EnvHttpProxyAgent)({
      httpProxy: setting.http,
      httpsProxy: setting.https,
      noProxy: setting.no,
      connections: CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: KEEP_ALIVE_MS,
    });
    proxyAgents.set(key, agent);
  }
  return agent;
}

/**
 * Closes every pool and proxy agent (tests, benchmarks and short scripts call it so the process can exit at
 * once); the proxy variables are read again on the next request.
 */
export async function closeAllPools(): Promise<void> {
  cachedSetting = undefined;
  const all: Dispatcher[] = [...pools.values(), ...proxyAgents.values()];
  pools.clear();
  proxyAgents.clear();
  await Promise.all(all.map((p) => p.close()));
}
