import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

/**
 * A webhook receiver as small as a real one can be: it accepts a POST only when its Standard Webhooks
 * signature verifies against the organization's signing secret (https://www.standardwebhooks.com,
 * "Verifying webhooks"), answers 2xx quickly, and handles each `webhook-id` once — a retry or a
 * redelivery carries the same id, so a receiver that acts twice on one id would page someone twice.
 *
 * Run it on its own with `WEBHOOK_SECRET=whsec_… npx tsx receiver.ts` (README.md); tests and the demo
 * import `startReceiver`.
 */

/** An event as the service sends it (the body of the webhook is the event exactly as `GET /events/{id}` returns it). */
export interface ReceivedEvent {
  id: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

export interface ReceiverOptions {
  /** The organization's signing secret, `whsec_…` (the stack's `webhookSigningSecret` output). */
  secret: string;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Where the receiver prints what it receives (stdout when omitted). */
  log?: (line: string) => void;
}

export interface Receiver {
  /** The URL to declare as the alert's `webhookUrl`. */
  url: string;
  /** Every verified event, once per `webhook-id`, in the order they arrived. */
  events: ReceivedEvent[];
  /** How many requests were refused (bad or missing signature, stale timestamp, not a POST to the path). */
  rejected: number;
  /** Resolves with the first verified event that `matches`, waiting as long as the caller lets it. */
  next(matches?: (event: ReceivedEvent) => boolean): Promise<ReceivedEvent>;
  close(): Promise<void>;
}

const PATH = "/webhooks/cloudcost";
/** A webhook body is one event; anything larger is not from the service. */
const MAX_BODY_BYTES = 1024 * 1024;

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on("end", () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** The three Standard Webhooks headers, as the library wants them. */
function signatureHeaders(request: IncomingMessage): Record<string, string> {
  const header = (name: string): string => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(" ") : (value ?? "");
  };
  return {
    "webhook-id": header("webhook-id"),
    "webhook-timestamp": header("webhook-timestamp"),
    "webhook-signature": header("webhook-signature"),
  };
}

function isEvent(value: unknown): value is ReceivedEvent {
  if (typeof value !== "object" || value === null) return false;
  const e = value as Record<string, unknown>;
  return typeof e.id === "string" && typeof e.type === "string" && typeof e.createdAt === "string" && typeof e.data === "object";
}

/** One line a person can read: what fired, how far, and when on the organization's clock. */
export function describeEvent(event: ReceivedEvent): string {
  const d = event.data;
  if (event.type === "budget_alert.threshold_crossed") {
    const threshold = d.threshold as { percent: number; basis: string };
    return `${event.id} ${event.type}: "${String(d.alertName)}" reached ${threshold.percent}% (${threshold.basis}) of ${String(d.amount)} ${String(d.currency)}; spend ${String(d.spend)} (period ${String(d.periodStart)} to ${String(d.periodEnd)})`;
  }
  return `${event.id} ${event.type} at ${event.createdAt}`;
}

export function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const log = options.log ?? ((line: string) => console.log(line));
  const webhook = new Webhook(options.secret);
  const events: ReceivedEvent[] = [];
  const seen = new Set<string>();
  const waiters: { matches: (e: ReceivedEvent) => boolean; resolve: (e: ReceivedEvent) => void }[] = [];
  let rejected = 0;

  const refuse = (response: ServerResponse, status: number, why: string) => {
    rejected += 1;
    log(`refused a request: ${why}`);
    response.writeHead(status, { "content-type": "text/plain" }).end(`${why}\n`);
  };

  const accept = (event: ReceivedEvent) => {
    events.push(event);
    log(`received and verified ${describeEvent(event)}`);
    for (const waiter of [...waiters])
      if (waiter.matches(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== "POST" || new URL(request.url ?? "/", "http://receiver.invalid").pathname !== PATH)
      return refuse(response, 404, `only POST ${PATH} is served`);
    const body = await readBody(request);
    if (body === undefined) return refuse(response, 413, "body too large");
    const headers = signatureHeaders(request);
    let payload: unknown;
    try {
      // Verifies the HMAC over "id.timestamp.body" and that the timestamp is within five minutes, then parses.
      payload = webhook.verify(body, headers);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return refuse(response, 401, `signature does not verify (${error.message})`);
      return refuse(response, 400, "the body is not JSON");
    }
    if (!isEvent(payload)) return refuse(response, 400, "the body is not an event");
    response.writeHead(204).end();
    // The same id again is a retry or a redelivery of what was already handled: acknowledge it, act once.
    if (seen.has(headers["webhook-id"]!)) return log(`received ${headers["webhook-id"]} again (already handled)`);
    seen.add(headers["webhook-id"]!);
    accept(payload);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 400, error instanceof Error ? error.message : String(error));
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host ?? "127.0.0.1";
      resolve({
        url: `http://${host.includes(":") ? `[${host}]` : host}:${port}${PATH}`,
        events,
        get rejected() {
          return rejected;
        },
        next: (matches = () => true) =>
          new Promise((found) => {
            const already = events.find(matches);
            if (already) found(already);
            else waiters.push({ matches, resolve: found });
          }),
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

/** `WEBHOOK_SECRET=whsec_… [PORT=8789] npx tsx receiver.ts`: receives until Ctrl-C. */
async function main(): Promise<void> {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    console.error("error: set WEBHOOK_SECRET to the signing secret: pulumi stack output --show-secrets webhookSigningSecret");
    process.exit(2);
  }
  const receiver = await startReceiver({ secret, port: Number(process.env.PORT ?? 8789) });
  console.log(`receiving webhooks at ${receiver.url} (Ctrl-C to stop)`);
}

if (require.main === module) void main();
