import { Problem } from "@cloudcost/api";
import type { RunningSandbox } from "@cloudcost/testkit";

/** A response as a test sees it: status, headers, parsed JSON body (or undefined) and the raw text. */
export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export interface CallOptions {
  token?: string;
  /** A JSON body (sent with `Content-Type: application/json`). */
  json?: unknown;
  /** A raw body; set `headers["content-type"]` yourself. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/** One HTTP call to `{base_url}` + `path` with fetch (undici), as any client would make it. */
export async function call(sandbox: RunningSandbox, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.raw;
  if (options.json !== undefined) {
    headers["content-type"] ??= "application/json";
    body = JSON.stringify(options.json);
  }
  const response = await fetch(`${sandbox.baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Asserts an RFC 9457 problem response with `status`, valid against the contract's `Problem` schema. */
export function expectProblem(reply: Reply, status: number): Problem {
  expect(reply.status).toBe(status);
  expect(reply.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  return Problem.parse(reply.body);
}

/** Narrows a JSON body for property access in assertions. */
export function fields(reply: Reply): Record<string, unknown> {
  if (typeof reply.body !== "object" || reply.body === null) throw new Error(`expected a JSON object, got ${reply.status} ${reply.text}`);
  return reply.body as Record<string, unknown>;
}

export const DEMO_AWS = ["111122223333", "444455556666", "777788889999"] as const;
export const DEMO_AZURE = ["0b1f6471-1bf0-4dda-aec3-cb9272f09590", "6f1a3c2e-8d4b-4b7a-9c51-2e0d7f3a9b14"] as const;

/** A valid budget alert body; override what a test is about. */
export function alertBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Monthly cap",
    amount: 5000,
    currency: "USD",
    period: "monthly",
    thresholds: [{ percent: 80, basis: "actual" }],
    recipients: ["finops@example.com"],
    ...overrides,
  };
}

/** A valid scheduled report body; override what a test is about. */
export function reportBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Weekly summary",
    report: "summary",
    schedule: { frequency: "weekly", dayOfWeek: "monday", time: "09:00", timezone: "Europe/Berlin" },
    recipients: ["finops@example.com"],
    ...overrides,
  };
}
