import { API_BASE_PATH, DEFAULT_ACCESS_TOKEN_TTL_SECONDS } from "@cloudcost/api/contract";
import { FAULT_KINDS, type FaultKind, type FaultOptions } from "../http/fault-injection";
import { DEFAULT_RETENTION_SECONDS, DEFAULT_SCAN_STEP_MS, publicOrigin, startSandboxServer } from "../index";
import { DEFAULT_AUTHORIZATION_CODE_TTL_SECONDS } from "../oauth/authorize";
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from "../http/server";
import { DEMO_USER } from "../identity/bootstrap";
import { dataDir, dataPath, fraction, integer, list, string, type Output, type Values } from "./arguments";
import { dataFolderError, listenError } from "./startup-errors";
import { UsageError } from "../errors";
import { DEFAULT_EVALUATE_EVERY_MS, DEFAULT_WEBHOOK_BACKOFF_MS, DEFAULT_WEBHOOK_TIMEOUT_MS } from "../events/event-engine";
import type { EngineOptions } from "../service/context";

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

/** `--smtp-url`: an smtp:// or smtps:// URL (nodemailer's connection URL). */
function smtpUrl(values: Values): string | undefined {
  const text = string(values, "smtp-url");
  if (text === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || !/^smtps?:$/.test(url.protocol) || !url.hostname)
    throw new UsageError(`--smtp-url must be an smtp:// or smtps:// URL such as smtp://127.0.0.1:1025, not ${JSON.stringify(text)}`);
  return text;
}

function engineOptions(values: Values): EngineOptions {
  return {
    evaluateEveryMs: integer(values, "evaluate-every-ms", DEFAULT_EVALUATE_EVERY_MS, 100, 86_400_000),
    webhookBackoffMs: integer(values, "webhook-backoff-ms", DEFAULT_WEBHOOK_BACKOFF_MS, 1, 3_600_000),
    webhookTimeoutMs: integer(values, "webhook-timeout-ms", DEFAULT_WEBHOOK_TIMEOUT_MS, 100, 120_000),
    smtpUrl: smtpUrl(values),
  };
}

/** What a new user needs after `serve` starts: where everything is and how to sign in. */
function printWelcome(out: Output, listenOrigin: string, origin: string): void {
  // The FIRST line stays exactly as it is: test harnesses and scripts/demo.js parse the listen URL from it.
  const publicNote = origin === listenOrigin ? "" : `; public URL ${origin}${API_BASE_PATH}`;
  out(`cloudcost sandbox listening on ${listenOrigin}${API_BASE_PATH}${publicNote}`);
  out(`  API:      ${origin}${API_BASE_PATH}   (set cloudcost:apiUrl to this)`);
  out(`  OpenAPI:  ${origin}${API_BASE_PATH}/openapi.json`);
  out(`  Portal:   ${origin}/portal/`);
  out(`  Sign in:  ${DEMO_USER.email} / ${DEMO_USER.password}   (the seeded user of the "demo" organization)`);
  out(
    `  A token:  npx --package @cloudcost/sandbox cloudcost-sandbox token create --org demo   (add --data DIR if you serve another folder)`,
  );
  out("Press Ctrl+C to stop.");
}

/** `serve`: runs until SIGTERM or SIGINT, then closes gracefully (open requests finish, the database closes). */
export async function serve(values: Values, out: Output): Promise<void> {
  const port = integer(values, "port", 8787, 0, 65535);
  const host = string(values, "host") ?? "127.0.0.1";
  let server: Awaited<ReturnType<typeof startSandboxServer>>;
  try {
    server = await startSandboxServer({
      dataDir: dataDir(values),
      port,
      host,
      publicUrl: publicUrl(values),
      rateLimitPerMinute: integer(values, "rate-limit", DEFAULT_RATE_LIMIT_PER_MINUTE, 0),
      scanStepMs: integer(values, "scan-step-ms", DEFAULT_SCAN_STEP_MS, 1, 3_600_000),
      accessTokenTtlSeconds: integer(values, "token-ttl", DEFAULT_ACCESS_TOKEN_TTL_SECONDS, 1),
      authorizationCodeTtlSeconds: integer(values, "code-ttl", DEFAULT_AUTHORIZATION_CODE_TTL_SECONDS, 1, 600),
      retentionSeconds: integer(values, "retention", DEFAULT_RETENTION_SECONDS, 1),
      faults: faultOptions(values),
      events: engineOptions(values),
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw listenError(error, host, port) ?? dataFolderError(error, dataPath(values));
  }
  printWelcome(out, server.listenOrigin, server.origin);
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
