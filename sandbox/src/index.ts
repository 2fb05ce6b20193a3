import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS } from "@cloudcost/api";
import type { FastifyInstance } from "fastify";
import type { AddressInfo } from "node:net";
import type { SandboxContext } from "./context";
import type { FaultOptions } from "./http/fault-injection";
import { openContext } from "./open-context";
import { DEFAULT_RATE_LIMIT_PER_MINUTE, buildServer } from "./server";

export type { SandboxConfig, SandboxContext } from "./context";
export type { FaultKind, FaultOptions } from "./http/fault-injection";
export { FAULT_KINDS } from "./http/fault-injection";
export { BODY_LIMIT_BYTES, DEFAULT_RATE_LIMIT_PER_MINUTE, buildServer, type ServerOptions } from "./server";
export { openContext } from "./open-context";
export { DEMO_ORG } from "./bootstrap";
export { DEMO_USER } from "./identity/bootstrap";
export { connectAccount } from "./connect-account";
export { ServiceError } from "./service-error";

/** Default step of a scan run (queued, then running): `serve --scan-step-ms`. */
export const DEFAULT_SCAN_STEP_MS = 1000;

export interface SandboxServerOptions {
  /** Data folder (created and bootstrapped with the `demo` organization when new). */
  dataDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Requests per minute per token; 0 turns the limit off. Default 600. */
  rateLimitPerMinute?: number;
  scanStepMs?: number;
  accessTokenTtlSeconds?: number;
  /** Lifetime of authorization codes (`serve --code-ttl`); 300 s by default. */
  authorizationCodeTtlSeconds?: number;
  faults?: FaultOptions;
}

export interface RunningSandboxServer {
  /** `{base_url}`, e.g. `http://127.0.0.1:8787/api/v1`. */
  url: string;
  /** `{auth_url}`: the origin that also serves the OAuth endpoints and the portal. */
  origin: string;
  ctx: SandboxContext;
  app: FastifyInstance;
  /** Stops accepting requests, finishes the open ones, stops the scan timer and closes the database. */
  close(): Promise<void>;
}

/** Starts the whole sandbox in this process (the CLI's `serve`, the demo and the benchmarks use it). */
export async function startSandboxServer(options: SandboxServerOptions): Promise<RunningSandboxServer> {
  const host = options.host ?? "127.0.0.1";
  const ctx = openContext({
    dataDir: options.dataDir,
    origin: "",
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
    authorizationCodeTtlSeconds: options.authorizationCodeTtlSeconds,
    scanStepMs: options.scanStepMs ?? DEFAULT_SCAN_STEP_MS,
  });
  try {
    const app = await buildServer(ctx, { rateLimitPerMinute: options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE, faults: options.faults });
    await app.listen({ port: options.port ?? 0, host });
    const { port } = app.server.address() as AddressInfo;
    ctx.config.origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    ctx.scans.resume();
    return {
      url: `${ctx.config.origin}/api/v1`,
      origin: ctx.config.origin,
      ctx,
      app,
      close: async () => {
        ctx.scans.stop();
        await app.close();
        ctx.db.close();
      },
    };
  } catch (error) {
    ctx.db.close();
    throw error;
  }
}
