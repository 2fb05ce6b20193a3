import { API_BASE_PATH, DEFAULT_ACCESS_TOKEN_TTL_SECONDS, parseUrl } from "@cloudcost/api/contract";
import type { FastifyInstance } from "fastify";
import type { AddressInfo } from "node:net";
import type { SandboxContext } from "./service/context";
import type { FaultOptions } from "./http/fault-injection";
import { reachableHosts } from "./http/host-check";
import { purgeExpired } from "./identity/purge";
import { openContext } from "./service/open-context";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, buildServer } from "./http/server";
import { EventEngine } from "./events/event-engine";
import type { EngineOptions } from "./service/context";
import { DEFAULT_SCAN_STEP_MS } from "./store/scans";

export type { SandboxConfig, SandboxContext } from "./service/context";
export type { FaultKind, FaultOptions } from "./http/fault-injection";
export { FAULT_KINDS } from "./http/fault-injection";
export { BODY_LIMIT_BYTES, DEFAULT_RATE_LIMIT_PER_MINUTE, buildServer, type ServerOptions } from "./http/server";
export { openContext } from "./service/open-context";
export { DEMO_ORG } from "./service/bootstrap";
export { DEMO_USER } from "./identity/bootstrap";
export { connectAccount } from "./service/connect-account";
export { ServiceError } from "./errors";
export {
  DEFAULT_EVALUATE_EVERY_MS,
  DEFAULT_WEBHOOK_BACKOFF_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  EventEngine,
  evaluateOrganization,
} from "./events/event-engine";
export { changeClock, clockState, injectSpend, type Evaluate } from "./events/controls";
export * from "./events/controls-contract";
export type { EngineOptions } from "./service/context";

export { DEFAULT_SCAN_STEP_MS } from "./store/scans";

export interface SandboxServerOptions {
  /** Data folder (created and bootstrapped with the `demo` organization when new). */
  dataDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /**
   * The origin users reach the sandbox at when it is not the listen address (`serve --public-url`, e.g.
   * behind a TLS proxy or on a LAN name): the issuer, the origin of redirects, whether cookies are
   * `Secure`, and one more accepted `Host`.
   */
  publicUrl?: string;
  /** Requests per minute per token; 0 turns the limit off. Default 600. */
  rateLimitPerMinute?: number;
  /** The rate limit's window (default 60 s; the limit then counts per window). Benchmarks only; no CLI flag. */
  rateLimitWindowMs?: number;
  scanStepMs?: number;
  accessTokenTtlSeconds?: number;
  /** Lifetime of authorization codes (`serve --code-ttl`); 300 s by default. */
  authorizationCodeTtlSeconds?: number;
  faults?: FaultOptions;
  /** How long expired or revoked tokens and codes are kept before they are purged (`serve --retention`). */
  retentionSeconds?: number;
  /** The events engine: evaluation timer, webhook backoff and timeout, SMTP relay (defaults in events/event-engine.ts). */
  events?: Partial<EngineOptions>;
  /**
   * Benchmarks only (no CLI flag): adds routes to the built server before it listens, e.g. the plain
   * same-SQL baseline routes of `npm run bench -- sandbox`, which must run on this server and connection.
   */
  beforeListen?: (app: FastifyInstance, ctx: SandboxContext) => void;
}

/** Default of `serve --retention`: a day. */
export const DEFAULT_RETENTION_SECONDS = 86_400;
/** The purge runs at start and then every retention period, at most every ten minutes. */
const MAX_PURGE_INTERVAL_MS = 600_000;

/** Purges now and then every `retentionSeconds` (at most every ten minutes); a failed purge is logged and tried again next time. */
function startPurging(ctx: SandboxContext, retentionSeconds: number): NodeJS.Timeout {
  const purge = (): void => {
    try {
      purgeExpired(ctx.db, Date.now(), retentionSeconds * 1000);
    } catch (error) {
      console.error(`warning: purging expired credentials failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  purge();
  return setInterval(purge, Math.min(retentionSeconds * 1000, MAX_PURGE_INTERVAL_MS)).unref();
}

export interface RunningSandboxServer {
  /** `{base_url}`, e.g. `http://127.0.0.1:8787/api/v1` (under `--public-url` when one is given). */
  url: string;
  /** Where the server listens, e.g. `http://127.0.0.1:8787`; the origin unless `publicUrl` differs. */
  listenOrigin: string;
  /** `{auth_url}`: the origin that also serves the OAuth endpoints and the portal. */
  origin: string;
  ctx: SandboxContext;
  app: FastifyInstance;
  /** Stops accepting requests, finishes the open ones, stops the scan timer and closes the database. */
  close(): Promise<void>;
}

/** `--public-url`: an http(s) origin, nothing more (no credentials, path, query or fragment). */
export function publicOrigin(text: string): URL {
  const url = parseUrl(text);
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.pathname !== "/" || url.search || url.hash) {
    throw new Error(`public URL ${JSON.stringify(text)} must be an http or https origin such as https://sandbox.example:8443`);
  }
  return url;
}

/** Starts the whole sandbox in this process (the CLI's `serve`, the demo and the benchmarks use it). */
export async function startSandboxServer(options: SandboxServerOptions): Promise<RunningSandboxServer> {
  const host = options.host ?? "127.0.0.1";
  const publicUrl = options.publicUrl === undefined ? undefined : publicOrigin(options.publicUrl);
  const ctx = openContext({
    dataDir: options.dataDir,
    origin: "",
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
    authorizationCodeTtlSeconds: options.authorizationCodeTtlSeconds,
    scanStepMs: options.scanStepMs ?? DEFAULT_SCAN_STEP_MS,
    retentionSeconds: options.retentionSeconds ?? DEFAULT_RETENTION_SECONDS,
    events: options.events,
  });
  // Known before the server is built: cookies are `Secure` when the public origin is https.
  if (publicUrl) ctx.config.origin = publicUrl.origin;
  const engine = new EventEngine(ctx);
  try {
    const app = await buildServer(ctx, {
      rateLimitPerMinute: options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
      rateLimitWindowMs: options.rateLimitWindowMs,
      faults: options.faults,
      engine,
    });
    options.beforeListen?.(app, ctx);
    await app.listen({ port: options.port ?? 0, host });
    const { port } = app.server.address() as AddressInfo;
    const listenOrigin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    ctx.config.origin = publicUrl?.origin ?? listenOrigin;
    ctx.config.allowedHosts = reachableHosts(host, publicUrl);
    ctx.scans.resume();
    // Evaluation timer and delivery worker; pending deliveries of an earlier run resume here.
    engine.start();
    const purging = startPurging(ctx, ctx.config.retentionSeconds ?? DEFAULT_RETENTION_SECONDS);
    return {
      url: `${ctx.config.origin}${API_BASE_PATH}`,
      listenOrigin,
      origin: ctx.config.origin,
      ctx,
      app,
      close: async () => {
        ctx.scans.stop();
        clearInterval(purging);
        await app.close();
        await engine.stop();
        ctx.db.close();
      },
    };
  } catch (error) {
    await engine.stop();
    ctx.db.close();
    throw error;
  }
}
