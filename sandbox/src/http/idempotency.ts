import { IdempotencyKey } from "@cloudcost/api/contract";
import { createHash } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { SandboxContext } from "../service/context";
import { writeTransaction } from "../store/connection";
import { invalidRequest, unprocessable } from "../errors";
import { isRecord } from "../validation";
import type { ApiResponse } from "./api-response";

/** Sorted keys, so the same JSON body in another key order is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isRecord(value)) {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** What a retry must repeat: method, path and body. */
export function requestFingerprint(request: FastifyRequest): string {
  const path = request.url.split("?")[0];
  return createHash("sha256")
    .update(`${request.method} ${path}\n${canonicalJson(request.body)}`)
    .digest("hex");
}

/** The `Idempotency-Key` header: 1–255 visible ASCII characters; undefined when absent. */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  if (key === undefined) return undefined;
  if (typeof key !== "string" || !IdempotencyKey.safeParse(key).success) {
    throw invalidRequest("Idempotency-Key must be 1 to 255 visible ASCII characters.", [
      { path: "header.Idempotency-Key", code: "invalid_format", message: "must be 1 to 255 visible ASCII characters" },
    ]);
  }
  return key;
}

/**
 * Runs a POST at most once per organization and key (kept 24 h): a retry with the same request gets the
 * first response again, marked `Idempotent-Replayed: true`; the same key with another request is a 422.
 * The lookup, the change and the saved response share one immediate transaction, so two processes
 * cannot both run it and a crash cannot keep one without the other.
 */
export function runIdempotently(ctx: SandboxContext, orgId: string, key: string, fingerprint: string, run: () => ApiResponse): ApiResponse {
  return writeTransaction(ctx.db, (): ApiResponse => {
    const saved = ctx.idempotencyKeys.find(orgId, key);
    if (saved) {
      if (saved.fingerprint !== fingerprint) {
        throw unprocessable("This Idempotency-Key was already used with another request; use a new key for a new request.", [
          { path: "header.Idempotency-Key", code: "idempotency_key_reused", message: "was used with a different method, path or body" },
        ]);
      }
      ctx.idempotencyKeys.markReplayed(orgId, key);
      return { status: saved.status, body: saved.body, headers: { ...saved.headers, "idempotent-replayed": "true" } };
    }
    const response = run();
    ctx.idempotencyKeys.save(orgId, key, { fingerprint, ...response });
    return response;
  });
}
