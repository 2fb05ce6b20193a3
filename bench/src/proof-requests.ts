import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandboxServer, type RunningSandboxServer } from "@cloudcost/sandbox";
import {
  providerTexts,
  secret,
  startConfiguredHost,
  startProviderHost,
  urn,
  type ProviderHost,
  type ResourceKind,
  cliJson,
  type OAuthClient,
} from "@cloudcost/testkit";
import { benchToken } from "./workload";

/**
 * Area `requests`: HTTP requests per provider operation and token requests per token lifetime, COUNTED
 * BY THE SANDBOX: the sandbox runs in this process and every request its HTTP server receives is
 * recorded (`server.on("request")`), while the provider runs in the real dynamic-provider host process.
 * Issue targets: check and diff 0; create, read, update, delete 1 each (2 for a group whose members
 * change); token requests at most 1 per process per token lifetime.
 */
const SAMPLE = 5;
const TOKEN_TTL_SECONDS = 2;
const TOKEN_RUN_MS = 6_000;

type Json = Record<string, unknown>;

interface CountingSandbox {
  server: RunningSandboxServer;
  dataDir: string;
  /** `METHOD path` of every request the sandbox received, in order. */
  seen: string[];
  /** When each of them arrived (`performance.now()`), same order. */
  at: number[];
  close(): Promise<void>;
}

async function countingSandbox(accessTokenTtlSeconds?: number): Promise<CountingSandbox> {
  const dataDir = mkdtempSync(join(tmpdir(), "cloudcost-bench-requests-"));
  const server = await startSandboxServer({ dataDir, port: 0, rateLimitPerMinute: 0, accessTokenTtlSeconds });
  const seen: string[] = [];
  const at: number[] = [];
  server.app.server.on("request", (req: { method?: string; url?: string }) => {
    seen.push(`${req.method} ${(req.url ?? "").split("?")[0]}`);
    at.push(performance.now());
  });
  return {
    server,
    dataDir,
    seen,
    at,
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One resource's life: the inputs it is created with and the inputs of each update. */
interface Scenario {
  kind: ResourceKind;
  create: Json;
  updates: Record<string, Json>;
}

const SCENARIOS: Record<string, Scenario> = {
  CloudGroup: { kind: "CloudGroup", create: { name: "g" }, updates: { update: { description: "changed" } } },
  "CloudGroup with members": {
    kind: "CloudGroup",
    create: { name: "m", awsAccountIds: ["111122223333"] },
    updates: {
      "update members": { awsAccountIds: ["444455556666"] },
      "update name and members": { name: "renamed", awsAccountIds: ["777788889999"] },
    },
  },
  BudgetAlert: { kind: "BudgetAlert", create: { name: "a", amount: 100 }, updates: { update: { amount: 250 } } },
  ScheduledReport: {
    kind: "ScheduledReport",
    create: {
      name: "r",
      report: "summary",
      schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
      recipients: ["finops@example.com"],
    },
    updates: { update: { format: "pdf" } },
  },
};

/** Runs every operation of one scenario SAMPLE times, sequentially, and averages the requests each made. */
async function countScenario(
  host: ProviderHost,
  sb: CountingSandbox,
  s: Scenario,
  label: string,
  texts: Record<ResourceKind, string>,
): Promise<Record<string, number>> {
  const totals: Record<string, number> = {};
  const count = async <T>(op: string, work: () => Promise<T>): Promise<T> => {
    const before = sb.seen.length;
    const result = await work();
    totals[op] = (totals[op] ?? 0) + sb.seen.length - before;
    return result;
  };
  for (let i = 0; i < SAMPLE; i++) {
    const u = urn(s.kind, `${label}-${i}`.replace(/\s/g, "-"));
    const named = (inputs: Json): Json => ({
      ...inputs,
      name: `${String(inputs.name ?? s.create.name)} ${label} ${i}`,
      __provider: texts[s.kind],
    });
    const checked = await count("check", () => host.check(u, {}, named(s.create)));
    const created = await count("create", () => host.create(u, checked.inputs));
    let outputs = created.properties;
    await count("diff", () => host.diff(u, created.id, outputs, checked.inputs));
    await count("read", () => host.read(u, created.id, outputs));
    for (const [op, change] of Object.entries(s.updates)) {
      const news = (await host.check(u, checked.inputs, named({ ...s.create, ...change }))).inputs;
      outputs = await count(op, () => host.update(u, created.id, outputs, news));
    }
    await count("delete", () => host.delete(u, created.id, outputs));
  }
  return Object.fromEntries(Object.entries(totals).map(([op, n]) => [op, n / SAMPLE]));
}

async function perOperation(texts: Record<ResourceKind, string>): Promise<Record<string, Record<string, number>>> {
  const sb = await countingSandbox();
  try {
    const token = await benchToken(sb.dataDir);
    const host = await startConfiguredHost(sb.server.url, token);
    try {
      const out: Record<string, Record<string, number>> = {};
      for (const [label, s] of Object.entries(SCENARIOS)) out[label] = await countScenario(host, sb, s, label, texts);
      return out;
    } finally {
      await host.stop();
    }
  } finally {
    await sb.close();
  }
}

/** One host process with client credentials reading for TOKEN_RUN_MS against 2-second access tokens. */
async function tokenRequests(texts: Record<ResourceKind, string>): Promise<Record<string, number | null>> {
  const sb = await countingSandbox(TOKEN_TTL_SECONDS);
  const host = await startProviderHost();
  try {
    const client = await cliJson<OAuthClient>(sb.dataDir, ["client", "create", "--org", "demo", "--scopes", "read,write", "--json"]);
    await host.configure({
      "cloudcost:apiUrl": sb.server.url,
      "cloudcost:clientId": client.client_id,
      "cloudcost:clientSecret": secret(client.client_secret),
    });
    const u = urn("CloudGroup", "token-run");
    const checked = await host.check(u, {}, { name: "token run", __provider: texts.CloudGroup });
    const before = sb.seen.length;
    const started = performance.now();
    const created = await host.create(u, checked.inputs);
    let operations = 1;
    while (performance.now() - started < TOKEN_RUN_MS) {
      await host.read(u, created.id, created.properties);
      operations++;
    }
    const seconds = (performance.now() - started) / 1000;
    const tokenTimes = sb.at.filter((_, i) => i >= before && sb.seen[i] === "POST /oauth/token");
    await host.delete(u, created.id, created.properties);
    const gaps = tokenTimes.slice(1).map((t, i) => (t - tokenTimes[i]!) / 1000);
    return {
      tokenLifetimeSeconds: TOKEN_TTL_SECONDS,
      runSeconds: Math.round(seconds * 10) / 10,
      operations,
      tokenRequests: tokenTimes.length,
      // The client renews 10% of the lifetime early (at most 60 s), so a token is used for 90% of its life.
      shortestSecondsBetweenTokenRequests: gaps.length ? Math.round(Math.min(...gaps) * 100) / 100 : null,
      tokenRequestsPerLifetime: Math.round((tokenTimes.length / (seconds / TOKEN_TTL_SECONDS)) * 100) / 100,
    };
  } finally {
    await host.stop();
    await sb.close();
  }
}

export async function requestsBench(): Promise<Record<string, unknown>> {
  const texts = await providerTexts();
  return {
    countedBy: "the sandbox's HTTP server",
    sample: SAMPLE,
    httpRequestsPerOperation: await perOperation(texts),
    tokens: await tokenRequests(texts),
  };
}
