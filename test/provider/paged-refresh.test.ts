/**
 * Refresh by pages (issue 16 item 1, issue 33 item 5), through the REAL dynamic-provider host: the Reads of a
 * kind are answered from one paged listing per process, whatever their order and pace (the first Read alone,
 * the rest later; one by one with pauses; on a busy machine), and every answer is the one the GET path gives.
 * The request counts asserted here are exact and depend on no timing. Between the host and a real sandbox sits a recording proxy (127.0.0.1 only),
 * which also breaks or trims list responses: the sandbox's own `--faults` would hit every route alike.
 */
import { spawn } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AlertInput, CloudCostClient, closeAllPools } from "@cloudcost/api";
import { BUDGET_ALERT_DEFAULTS } from "@cloudcost/pulumi";
import {
  providerTexts,
  secret,
  startConfiguredHost,
  startProviderHost,
  urn,
  type ProviderHost,
  type ResourceKind,
} from "@cloudcost/testkit";
import { holdSandboxDay, startSandbox, type RunningSandbox } from "@cloudcost/testkit";

type Json = Record<string, unknown>;

/** What the proxy does with a list response: pass it, fail it, or rewrite its page. */
type ListRule = (path: string, page: { items: Json[]; nextCursor: string | null }) => { status: number; page?: Json } | undefined;

interface Proxy {
  baseUrl: string;
  /** `METHOD /path?query` of every request forwarded or answered, in order. */
  seen: string[];
  listRule: ListRule | undefined;
  close(): Promise<void>;
}

async function startProxy(target: RunningSandbox): Promise<Proxy> {
  const origin = new URL(target.origin);
  const proxy: Proxy = { baseUrl: "", seen: [], listRule: undefined, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      proxy.seen.push(`${req.method} ${req.url}`);
      const upstream = httpRequest(
        { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: { ...req.headers, host: origin.host } },
        (up) => {
          const body: Buffer[] = [];
          up.on("data", (c: Buffer) => body.push(c));
          up.on("end", () => {
            let status = up.statusCode ?? 502;
            let text = Buffer.concat(body).toString();
            const isList = req.method === "GET" && /\/(groups|alerts|reports)\?/.test(req.url ?? "");
            const rule = isList && status === 200 ? proxy.listRule?.(req.url ?? "", JSON.parse(text) as never) : undefined;
            if (rule) {
              status = rule.status;
              text = JSON.stringify(rule.page ?? { type: "about:blank", title: "injected failure", status });
            }
            const headers = { ...up.headers, "content-length": String(Buffer.byteLength(text)) };
            delete headers["transfer-encoding"];
            if (rule && rule.status !== 200) headers["content-type"] = "application/problem+json";
            res.writeHead(status, headers).end(text);
          });
        },
      );
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  proxy.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  proxy.close = () => new Promise((r) => server.close(() => r()));
  return proxy;
}

let sandbox: RunningSandbox;
let token: string;
let otherToken: string;
let api: CloudCostClient;
let otherApi: CloudCostClient;
let proxy: Proxy;
let texts: Record<ResourceKind, string>;
const hosts: ProviderHost[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
  token = await sandbox.token("read,write");
  await holdSandboxDay(sandbox, token);
  await sandbox.cliJson(["org", "create", "paged-other", "--json"]);
  otherToken = (await sandbox.cliJson<{ token: string }>(["token", "create", "--org", "paged-other", "--scopes", "read,write", "--json"]))
    .token;
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  otherApi = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: otherToken } });
  proxy = await startProxy(sandbox);
  texts = await providerTexts();
});
afterAll(async () => {
  for (const h of hosts) await h.stop();
  await proxy?.close();
  await sandbox?.dispose();
  await closeAllPools();
});

/** A fresh host process (as the engine starts for each operation: no listing yet) configured through the proxy. */
async function host(apiToken = token): Promise<ProviderHost> {
  const h = await startConfiguredHost(proxy.baseUrl, apiToken);
  hosts.push(h);
  return h;
}

interface Stored {
  kind: ResourceKind;
  urn: string;
  id: string;
  outputs: Json;
  inputs: Json;
}

let serial = 0;
function inputsFor(kind: ResourceKind, i: number, members: boolean): Json {
  const name = `paged ${kind} ${++serial}`;
  if (kind === "CloudGroup") return { name, ...(members && i % 2 === 0 ? { awsAccountIds: ["111122223333"] } : {}) };
  if (kind === "BudgetAlert")
    return { name, amount: 100 + i, recipients: ["FinOps@Example.com"], webhookUrl: "https://hooks.example.com/p" };
  return {
    name,
    report: "summary",
    schedule: { frequency: "weekly", dayOfWeek: "monday", time: "09:00", timezone: "UTC" },
    recipients: ["finops@example.com"],
  };
}

/** Creates `n` resources of each kind through `h` (check, then create, as the engine does). */
async function createMany(h: ProviderHost, kinds: ResourceKind[], n: number, members = true): Promise<Stored[]> {
  const out: Stored[] = [];
  for (const kind of kinds)
    for (let i = 0; i < n; i++) {
      const u = urn(kind, `paged-${++serial}`);
      const checked = await h.check(u, {}, { ...inputsFor(kind, i, members), __provider: texts[kind] });
      const created = await h.create(u, checked.inputs);
      out.push({ kind, urn: u, id: created.id, outputs: created.properties, inputs: checked.inputs });
    }
  return out;
}

/** Reads `stored` at the engine's parallelism (16 in flight), like `pulumi refresh`, after `delayMs`. */
async function burst(h: ProviderHost, stored: Stored[], delayMs = 0) {
  if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
  const results = new Array<Awaited<ReturnType<ProviderHost["read"]>>>(stored.length);
  let next = 0;
  const worker = async () => {
    while (next < stored.length) {
      const i = next++;
      const s = stored[i]!;
      results[i] = await h.read(s.urn, s.id, s.outputs, s.inputs);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return results;
}

/** The engine's own order: per kind, its first Read alone, then the rest of the kind `laterMs` later at parallelism 16. */
async function firstAloneThenRest(h: ProviderHost, stored: Stored[], laterMs: number) {
  const results: Awaited<ReturnType<ProviderHost["read"]>>[] = [];
  for (const kind of ["CloudGroup", "BudgetAlert", "ScheduledReport"] as const) {
    const ofKind = stored.filter((s) => s.kind === kind);
    if (ofKind.length === 0) continue;
    results.push(...(await burst(h, ofKind.slice(0, 1))));
    results.push(...(await burst(h, ofKind.slice(1), laterMs)));
  }
  return results;
}

/** Each resource read through its own new host, as its kind's first Read: the GET path, the reference answer. */
async function viaGet(stored: Stored[]) {
  const results = [];
  for (const s of stored) {
    const h = await host();
    results.push(await h.read(s.urn, s.id, s.outputs, s.inputs));
    await h.stop();
  }
  return results;
}

const lists = (from: number) => proxy.seen.slice(from).filter((l) => /^GET \S*\/(groups|alerts|reports)\?/.test(l));
/** Listings started: their first pages (the organization may hold more than a page of a kind by then). */
const listings = (from: number) => lists(from).filter((l) => !l.includes("cursor="));
const gets = (from: number) => proxy.seen.slice(from).filter((l) => /^GET \S*\/(groups|alerts|reports)\/[^/?]+$/.test(l));

/** Alerts of every kind: a plain amount, planned amounts, autoAdjust, filters, dates, thresholds by amount. */
function alertVariant(i: number, groupId: string | undefined): Json {
  const base = { name: `variant ${++serial}`, amount: 100 + i, recipients: ["finops@example.com"] };
  switch (i % 5) {
    case 0:
      return { ...base, groupId, webhookUrl: "https://hooks.example.com/v" };
    case 1:
      return {
        ...base,
        plannedAmounts: [
          { periodStart: "2026-01-01", amount: 250 },
          { periodStart: "2026-02-01", amount: 300 },
        ],
      };
    case 2:
      return { ...base, autoAdjust: { lookbackPeriods: 3 }, groupId };
    case 3:
      return { ...base, filters: { providers: ["aws"], services: ["Amazon EC2"], regions: ["us-east-1"] }, startDate: "2026-01-15" };
    default:
      return {
        ...base,
        period: "quarterly",
        thresholds: [
          { amount: 80, basis: "forecast" },
          { percent: 120, basis: "actual" },
        ],
      };
  }
}

/** Groups, alerts of every kind (some on the groups) and reports, created through `h` as the engine does. */
async function mixedStack(h: ProviderHost, perKind: number): Promise<Stored[]> {
  const groups = await createMany(h, ["CloudGroup"], perKind);
  const alerts: Stored[] = [];
  for (let i = 0; i < perKind; i++) {
    const u = urn("BudgetAlert", `variant-${++serial}`);
    const checked = await h.check(u, {}, { ...alertVariant(i, groups[i % groups.length]!.id), __provider: texts.BudgetAlert });
    expect(checked.failures ?? []).toEqual([]);
    const created = await h.create(u, checked.inputs);
    alerts.push({ kind: "BudgetAlert", urn: u, id: created.id, outputs: created.properties, inputs: checked.inputs });
  }
  return [...groups, ...alerts, ...(await createMany(h, ["ScheduledReport"], perKind))];
}

/**
 * Busy loops beside the test (the machine of the issue, load ~15 on 2 cores): `n` processes that spin
 * for at most `seconds` and stop by themselves; the returned function ends them earlier.
 */
function busyLoops(n: number, seconds: number): () => void {
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, ["-e", `const end = Date.now() + ${seconds * 1000}; while (Date.now() < end);`], { stdio: "ignore" }),
  );
  return () => children.forEach((c) => c.kill());
}

describe("refresh by pages through the real host", () => {
  test("Reads in any order and at any pace: one GET and one listing per kind, and the answers of the GET path", async () => {
    const h = await host();
    const stored = await mixedStack(h, 10);
    const reference = await viaGet([stored[0]!, stored[11]!, stored[12]!, stored[13]!, stored[14]!, stored[25]!]);
    // Each order in a new host (the engine starts one per operation); the counts are the same in every one.
    const orders: [string, (h: ProviderHost) => Promise<unknown[]>][] = [
      ["all at once", (x) => burst(x, stored)],
      ["first alone, the rest 20 ms later", (x) => firstAloneThenRest(x, stored, 20)],
      ["first alone, the rest 700 ms later", (x) => firstAloneThenRest(x, stored, 700)],
      [
        "one by one, 600 ms apart",
        async (x) => {
          const out = [];
          for (const s of stored) out.push(...(await burst(x, [s], 600)));
          return out;
        },
      ],
    ];
    for (const [name, order] of orders) {
      const x = await host();
      const from = proxy.seen.length;
      const results = (await order(x)) as Awaited<ReturnType<ProviderHost["read"]>>[];
      await x.stop();
      const byId = new Map(results.map((r) => [r.id, r]));
      expect({ name, ids: stored.map((s) => byId.get(s.id)?.id) }).toEqual({ name, ids: stored.map((s) => s.id) });
      // The first Read of each kind takes its GET; the second starts the kind's one listing (one page here).
      expect({ name, gets: gets(from).length, listings: listings(from).length }).toEqual({ name, gets: 3, listings: 3 });
      for (const [k, s] of [stored[0]!, stored[11]!, stored[12]!, stored[13]!, stored[14]!, stored[25]!].entries())
        expect({ name, read: byId.get(s.id) }).toEqual({ name, read: reference[k] });
    }
  });

  test("the engine's order on a busy machine (busy loops beside it): the same count", async () => {
    const h = await host();
    const stored = await mixedStack(h, 6);
    const stop = busyLoops(6, 60);
    try {
      const x = await host();
      const from = proxy.seen.length;
      const results = await firstAloneThenRest(x, stored, 20);
      expect(results.map((r) => r.id).sort()).toEqual(stored.map((s) => s.id).sort());
      expect({ gets: gets(from).length, listings: listings(from).length }).toEqual({ gets: 3, listings: 3 });
    } finally {
      stop();
    }
  });

  test("a change and a delete made outside Pulumi before a refresh are seen by that refresh", async () => {
    const stored = await createMany(await host(), ["BudgetAlert"], 6);
    await burst(await host(), stored);
    const [changed, deleted] = [stored[0]!, stored[1]!];
    await api.replaceAlert(
      changed.id,
      AlertInput.parse({ ...BUDGET_ALERT_DEFAULTS, name: "changed outside", amount: 999, recipients: ["finops@example.com"] }),
    );
    await api.deleteAlert(deleted.id);
    // The next refresh is a new operation, so a new host: its listing is fetched after the changes.
    const after = await burst(await host(), stored);
    expect(after[0]!.properties.amount).toBe(999);
    expect(after[0]!.inputs?.name).toBe("changed outside");
    expect(after[1]!.id).toBe("");
    expect(after.slice(2).every((r, i) => r.id === stored[i + 2]!.id)).toBe(true);
    // And an object changed outside while its first refresh had its own GET is seen as changed as well.
    const third = stored[2]!;
    await api.replaceAlert(third.id, AlertInput.parse({ ...BUDGET_ALERT_DEFAULTS, name: "third", amount: 333, recipients: [] }));
    const fresh = await host();
    const [alone] = await burst(fresh, [third]);
    expect(alone!.properties.amount).toBe(333);
  });

  test("an update through the host after its listing was fetched: the next Read sees the new values, not the listing", async () => {
    // Created by another host: objects a process wrote are never answered from its listing at all.
    const stored = await createMany(await host(), ["BudgetAlert"], 4);
    const h = await host();
    await burst(h, stored);
    const target = stored[0]!;
    const news = (await h.check(target.urn, target.inputs, { ...target.inputs, amount: 4321, __provider: texts.BudgetAlert })).inputs;
    const updated = await h.update(target.urn, target.id, target.outputs, news, target.inputs);
    const from = proxy.seen.length;
    const after = await burst(h, [{ ...target, outputs: updated }, ...stored.slice(1)]);
    expect(after[0]!.properties.amount).toBe(4321);
    expect(after.map((r) => r.id)).toEqual(stored.map((s) => s.id));
    // Only the written object took its GET; the others were still answered from the listing.
    expect(gets(from)).toEqual([`GET /api/v1/alerts/${target.id}`]);
    expect(lists(from)).toEqual([]);
  });

  test("more than one page: 230 alerts are read from two pages of 200", async () => {
    const h = await host();
    const stored = [];
    // Created with the client (faster than through the host); the host then reads them as stored state.
    const template = (await createMany(h, ["BudgetAlert"], 1))[0]!;
    stored.push(template);
    for (let i = 0; i < 229; i++) {
      const a = await api.createAlert(
        AlertInput.parse({ ...BUDGET_ALERT_DEFAULTS, name: `page ${i}`, amount: 10 + i, recipients: ["finops@example.com"] }),
      );
      stored.push({ ...template, urn: urn("BudgetAlert", `page-${i}`), id: a.id });
    }
    const reader = await host();
    const from = proxy.seen.length;
    const results = await burst(reader, stored);
    expect(results.map((r) => r.id)).toEqual(stored.map((s) => s.id));
    expect(results.slice(1).map((r) => r.properties.amount)).toEqual(stored.slice(1).map((_, i) => 10 + i));
    const pages = lists(from);
    expect(pages.some((l) => l.includes("cursor="))).toBe(true);
    expect(pages.length).toBe(2);
    expect(gets(from)).toEqual([`GET /api/v1/alerts/${template.id}`]);
  });

  test("a failing list endpoint: every Read falls back to its own GET and still answers correctly", async () => {
    const stored = await createMany(await host(), ["ScheduledReport", "CloudGroup"], 5);
    const expected = await viaGet([stored[1]!, stored[7]!]);
    proxy.listRule = () => ({ status: 500 });
    try {
      const from = proxy.seen.length;
      const results = await burst(await host(), stored);
      expect(results.map((r) => r.id)).toEqual(stored.map((s) => s.id));
      expect(results[1]).toEqual(expected[0]);
      expect(results[7]).toEqual(expected[1]);
      expect(gets(from).length).toBe(stored.length);
    } finally {
      proxy.listRule = undefined;
    }
  });

  test("a second page that fails, or a listing that leaves objects out: those objects are confirmed with a GET, never reported gone", async () => {
    const stored = await createMany(await host(), ["BudgetAlert"], 6);
    // The listing lacks two of them (a trimmed, "complete-looking" page).
    const left = new Set([stored[2]!.id, stored[4]!.id]);
    proxy.listRule = (_path, page) => ({ status: 200, page: { ...page, items: page.items.filter((a) => !left.has(String(a.id))) } });
    try {
      const from = proxy.seen.length;
      const results = await burst(await host(), stored);
      expect(results.map((r) => r.id)).toEqual(stored.map((s) => s.id));
      // The first Read's own GET, and one for each object the listing left out.
      expect(gets(from).sort()).toEqual([stored[0]!.id, ...left].map((id) => `GET /api/v1/alerts/${id}`).sort());
    } finally {
      proxy.listRule = undefined;
    }
    // A listing whose second page fails is not used at all.
    proxy.listRule = (path, page) =>
      path.includes("cursor=") ? { status: 500 } : { status: 200, page: { items: page.items.slice(0, 1), nextCursor: "next" } };
    try {
      const from = proxy.seen.length;
      const results = await burst(await host(), stored);
      expect(results.map((r) => r.id)).toEqual(stored.map((s) => s.id));
      expect(gets(from).length).toBe(stored.length);
    } finally {
      proxy.listRule = undefined;
    }
  });

  test("mixed organizations in one stack: each host reads its own organization's listings; another's object is not taken for gone", async () => {
    const [hostA, hostB] = [await host(), await host(otherToken)];
    const [ownA, ownB] = [
      await createMany(hostA, ["CloudGroup", "BudgetAlert"], 4),
      await createMany(hostB, ["CloudGroup", "BudgetAlert"], 4, false),
    ];
    const [readA, readB] = await Promise.all([burst(hostA, ownA), burst(hostB, ownB)]);
    expect(readA.map((r) => r.id)).toEqual(ownA.map((s) => s.id));
    expect(readB.map((r) => r.id)).toEqual(ownB.map((s) => s.id));
    expect(readB.every((r) => r.properties.organization === ownB[0]!.outputs.organization)).toBe(true);
    expect(ownA[0]!.outputs.organization).not.toEqual(ownB[0]!.outputs.organization);
    // An object of organization B read with A's credentials, A's listing already fetched: absent from it,
    // 404 on GET, and it belongs to B: the Read fails with a clear message instead of dropping it from state.
    const mixed = [...ownA, ownB[0]!];
    await expect(burst(hostA, mixed)).rejects.toThrow(/belongs to organization/);
    expect((await otherApi.getGroup(ownB[0]!.id)).id).toBe(ownB[0]!.id);
  });

  test("mixed credentials: resources created with an API token refresh from listings through OAuth client credentials of the same organization", async () => {
    const byToken = await host();
    const stored = await createMany(byToken, ["CloudGroup", "BudgetAlert", "ScheduledReport"], 3);
    const expected = await viaGet([stored[1]!, stored[4]!, stored[8]!]);
    const client = await sandbox.client("read,write");
    const byClient = await startProviderHost();
    hosts.push(byClient);
    await byClient.configure({
      "cloudcost:apiUrl": proxy.baseUrl,
      "cloudcost:clientId": client.client_id,
      "cloudcost:clientSecret": secret(client.client_secret),
    });
    const from = proxy.seen.length;
    const results = await burst(byClient, stored);
    expect(results.map((r) => r.id)).toEqual(stored.map((s) => s.id));
    expect([results[1], results[4], results[8]]).toEqual(expected);
    expect(gets(from).length).toBe(3);
    expect(listings(from).length).toBe(3);
    expect(proxy.seen.slice(from).filter((l) => l.startsWith("POST /oauth/token")).length).toBe(1);
  });
});
