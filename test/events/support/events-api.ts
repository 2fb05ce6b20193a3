import type { RunningSandbox } from "@cloudcost/testkit";
import type { Delivery, Event } from "@cloudcost/api";
import { call, fields, type Reply } from "../../sandbox/api-client";

/** A reply of the sandbox controls, with its raw bytes (attachments). */
export interface ControlReply extends Reply {
  bytes: Buffer;
}

/** A call to the sandbox controls (`/sandbox/v1`), as any HTTP client would make it. */
export async function control(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  token: string | undefined,
  json?: unknown,
): Promise<ControlReply> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (json !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${sandbox.origin}/sandbox/v1${path}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const buffer = Buffer.from(await response.arrayBuffer());
  const text = buffer.toString("utf8");
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text, bytes: buffer };
}

/** The organization's events (newest first), optionally of one alert or report. */
export async function events(sandbox: RunningSandbox, token: string, about?: string): Promise<Event[]> {
  const reply = await call(sandbox, "GET", "/events?limit=200", { token });
  if (reply.status !== 200) throw new Error(`GET /events: ${reply.status} ${reply.text}`);
  const items = fields(reply).items as Event[];
  return about === undefined ? items : items.filter((e) => ("alertId" in e.data ? e.data.alertId : e.data.reportId) === about);
}

export async function deliveries(sandbox: RunningSandbox, token: string, eventId: string): Promise<Delivery[]> {
  const reply = await call(sandbox, "GET", `/events/${eventId}/deliveries`, { token });
  if (reply.status !== 200) throw new Error(`GET deliveries: ${reply.status} ${reply.text}`);
  return fields(reply).items as Delivery[];
}

/** Polls `probe` every 100 ms until it returns a value; bounded, so a missing event fails the test instead of hanging it. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A time on the 10th of next month, 12:00 UTC: always ahead of real time, nine billed days into its month. */
export function tenthOfNextMonth(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 10, 12, 0, 0));
}

export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
