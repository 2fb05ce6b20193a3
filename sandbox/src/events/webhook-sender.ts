import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import { parseUrl } from "@cloudcost/api/contract";

/** What one attempt came to. */
export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  error?: string;
}

/** Bytes of a receiver's answer the sandbox reads at most (it only needs the status). */
const MAX_RESPONSE_BYTES = 4096;

/**
 * The Standard Webhooks headers (https://www.standardwebhooks.com, "Webhook headers", "Signature
 * scheme"): `webhook-id` = the event ID (the same on every retry and redelivery, so receivers can
 * deduplicate), `webhook-timestamp` = wall-clock seconds of this attempt (never the organization's
 * clock: receivers reject old timestamps), `webhook-signature` = `v1,<base64 HMAC-SHA256>` per secret,
 * space-separated while a rotated secret still counts.
 */
export function signedHeaders(eventId: string, body: string, secrets: readonly string[], now: Date): Record<string, string> {
  const signature = secrets.map((secret) => new Webhook(secret).sign(eventId, now, body)).join(" ");
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": signature,
  };
}

/**
 * POSTs one webhook, bounded: `timeoutMs` for the whole attempt (connect to status line), no redirects
 * followed (node:http never follows one; a 3xx is a failed attempt), at most 4 KiB of the answer read,
 * no connection reuse. Never rejects: every failure is an outcome with `error`.
 */
export function postWebhook(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<AttemptOutcome> {
  // Parsed before the attempt starts: `finish` below clears a timer that exists only once the request does.
  const target = parseUrl(url);
  if (!target) return Promise.resolve({ statusCode: null, durationMs: 0, error: "invalid URL" });
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const req = send(target, {
      method: "POST",
      agent: false,
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "user-agent": "cloudcost-sandbox-webhooks/1",
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      finish({ statusCode: null, durationMs: elapsed(), error: `timed out after ${timeoutMs} ms` });
    }, timeoutMs);
    req.on("response", (res) => {
      const statusCode = res.statusCode ?? null;
      let read = 0;
      res.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) res.destroy();
      });
      res.on("error", () => undefined);
      const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
      finish({ statusCode, durationMs: elapsed(), ...(ok ? {} : { error: `the receiver answered ${statusCode ?? "nothing"}` }) });
      // The status is all that counts; drain a little (keeps the receiver's write from failing), then close.
      res.resume();
      setTimeout(() => res.destroy(), 1000).unref();
    });
    req.on("error", (error) => finish({ statusCode: null, durationMs: elapsed(), error: error.message || String(error) }));
    req.end(body);
  });
}
