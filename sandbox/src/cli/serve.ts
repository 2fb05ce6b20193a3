import { DEFAULT_ACCESS_TOKEN_TTL_SECONDS } from "@cloudcost/api";
import { FAULT_KINDS, type FaultKind, type FaultOptions } from "../http/fault-injection";
import { DEFAULT_RETENTION_SECONDS, DEFAULT_SCAN_STEP_MS, publicOrigin, startSandboxServer } from "../index";
import { DEFAULT_AUTHORIZATION_CODE_TTL_SECONDS } from "../oauth/authorize";
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from "../http/server";
import { dataDir, fraction, integer, list, parse, string, type Values } from "./arguments";
import { UsageError } from "../errors";

const SERVE_OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  "public-url": { type: "string" },
  "rate-limit": { type: "string" },
  "scan-step-ms": { type: "string" },
  "token-ttl": { type: "string" },
  "code-ttl": { type: "string" },
  retention: { type: "string" },
  faults: { type: "string" },
  "fault-seed": { type: "string" },
  "fault-kinds": { type: "string" },
  "fault-latency-ms": { type: "string" },
} as const;

/** Without `--fault-kinds`, every kind but `reset-after` (which lets the change commit). */
const DEFAULT_FAULT_KINDS: readonly FaultKind[] = ["429", "503", "reset", "latency"];

function faultOptions(values: Values): FaultOptions | undefined {
  const rate = fraction(values, "faults");
  const others = ["fault-seed", "fault-kinds", "fault-latency-ms"].filter((n) => values[n] !== undefined);
  if (rate === undefined) {
    if (others.length) throw new UsageError(`--${others[0]} needs --faults RATE`);
    return undefined;
  }
  return {
    rate,
    seed: integer(values, "fault-seed", 1, 0, 2 ** 32 - 1),
    kinds: list(values, "fault-kinds", FAULT_KINDS) ?? DEFAULT_FAULT_KINDS,
    latencyMs: integer(values, "fault-latency-ms", 1000, 0, 60_000),
  };
}

function publicUrl(values: Values): string | undefined {
  const text = string(values, "public-url");
  if (text === undefined) return undefined;
  try {
    publicOrigin(text);
  } catch (error) {
    throw new UsageError(`--public-url: ${error instanceof Error ? error.message : String(error)}`);
  }
  return text;
}

/** `serve`: runs until SIGTERM or SIGINT, then closes gracefully (open requests finish, the database closes). */
export async function serve(args: readonly string[]): Promise<void> {
  const { values } = parse(args, SERVE_OPTIONS, []);
  const server = await startSandboxServer({
    dataDir: dataDir(values),
    port: integer(values, "port", 8787, 0, 65535),
    host: string(values, "host") ?? "127.0.0.1",
    publicUrl: publicUrl(values),
    rateLimitPerMinute: integer(values, "rate-limit", DEFAULT_RATE_LIMIT_PER_MINUTE, 0),
    scanStepMs: integer(values, "scan-step-ms", DEFAULT_SCAN_STEP_MS, 1, 3_600_000),
    accessTokenTtlSeconds: integer(values, "token-ttl", DEFAULT_ACCESS_TOKEN_TTL_SECONDS, 1),
    authorizationCodeTtlSeconds: integer(values, "code-ttl", DEFAULT_AUTHORIZATION_CODE_TTL_SECONDS, 1, 600),
    retentionSeconds: integer(values, "retention", DEFAULT_RETENTION_SECONDS, 1),
    faults: faultOptions(values),
  });
  const publicNote = server.origin === server.listenOrigin ? "" : `; public URL ${server.url}`;
  console.log(`cloudcost sandbox listening on ${server.listenOrigin}/api/v1${publicNote}`);
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`error: shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}
