import type { Pool } from "undici";
import { AlertInput, CreateGroup, ReportInput } from "@cloudcost/api";
import { BUDGET_ALERT_DEFAULTS } from "@cloudcost/pulumi";
import { cliJson, RESOURCE_KINDS, type ResourceKind } from "@cloudcost/testkit";

/** The provider areas' workload: which resources, their request bodies, and how they are driven (parallelism 16, like the engine). */

/** Operations in flight at once: the engine's default parallelism. */
export const PARALLELISM = 16;
export type Json = Record<string, unknown>;
export interface Item {
  kind: ResourceKind;
  name: string;
  inputs: Json;
}

export function workload(n: number, prefix: string): Item[] {
  return Array.from({ length: n }, (_, i) => {
    const kind = RESOURCE_KINDS[i % RESOURCE_KINDS.length]!;
    const name = `${prefix}-${i}`;
    if (kind === "CloudGroup") return { kind, name, inputs: { name, ...(i % 6 === 0 ? { awsAccountIds: ["111122223333"] } : {}) } };
    if (kind === "BudgetAlert") return { kind, name, inputs: { name, amount: 100 + i, recipients: ["finops@example.com"] } };
    return {
      kind,
      name,
      inputs: {
        name,
        report: "summary",
        schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
        recipients: ["finops@example.com"],
      },
    };
  });
}

export async function inParallel<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: PARALLELISM }, worker));
  return results;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const t0 = performance.now();
  const result = await work();
  return { result, seconds: (performance.now() - t0) / 1000 };
}

export const PLURAL: Record<ResourceKind, string> = { CloudGroup: "groups", BudgetAlert: "alerts", ScheduledReport: "reports" };

/** The body the provider POSTs for an item: its inputs with the provider's and the contract's defaults. */
export function requestBody(item: Item): Json {
  const i = item.inputs;
  if (item.kind === "CloudGroup") return CreateGroup.parse({ name: i.name });
  if (item.kind === "BudgetAlert") return AlertInput.parse({ ...BUDGET_ALERT_DEFAULTS, ...i });
  return ReportInput.parse(i);
}

export const PHASES = ["create", "read", "delete"] as const;
export type Phase = (typeof PHASES)[number];

export type FloorSend = (method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: Json) => Promise<Json>;

/** The floor's request: what the provider's client sends (token, JSON, an idempotency key on POST), with nothing else around it. */
export function floorSender(baseUrl: string, token: string, pool: Pool): FloorSend {
  const url = new URL(baseUrl);
  return async (method, path, body) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: "application/json" };
    if (body) headers["content-type"] = "application/json";
    if (method === "POST") headers["idempotency-key"] = crypto.randomUUID();
    const res = await pool.request({ method, path: `${url.pathname}${path}`, headers, body: body ? JSON.stringify(body) : undefined });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return text ? (JSON.parse(text) as Json) : {};
  };
}

/** A fresh read/write API token of the demo organization, made by the sandbox CLI on the sandbox's data folder. */
export async function benchToken(dataDir: string): Promise<string> {
  return (await cliJson<{ token: string }>(dataDir, ["token", "create", "--org", "demo", "--scopes", "read,write", "--json"])).token;
}
