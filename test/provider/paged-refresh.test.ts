/**
 * Refresh by pages (issue 16 item 1), through the REAL dynamic-provider host: Reads that arrive together,
 * as the engine sends them at parallelism 16, are answered from paged listings, and every answer is the
 * one the GET path gives. Between the host and a real sandbox sits a recording proxy (127.0.0.1 only),
 * which also breaks or trims list responses: the sandbox's own `--faults` would hit every route alike.
 */
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
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";

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
  await sandbox.cliJson(["org", "create", "paged-other", "--json"]);
  otherToken = (await sandbox.cliJson<{ token: string }>(["token", "create", "--org", "paged-other", "--scopes", "read,write", "--json"]))
    .token;
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  otherApi = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: otherToken } });
  proxy = await startProxy(sandbox);
  texts = await providerTexts();
}, 60_000);
afterAll(async () => {
  for (const h of hosts) await h.stop();
  await proxy?.close();
  await sandbox?.dispose();
  await closeAllPools();
});

/** A fresh host process (no listing left from an earlier case) configured through the proxy. */
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

/** Reads every resource at the engine's parallelism (16 in flight), like `pulumi refresh`. */
async function burst(h: ProviderHost, stored: Stored[]) {
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

/** The same Reads one by one with pauses longer than a burst's idle limit: each takes the GET path. */
async function oneByOne(h: ProviderHost, stored: Stored[]) {
  const results = [];
  for (const s of stored) {
    await new Promise((r) => setTimeout(r, 600));
    results.push(await h.read(s.urn, s.id, s.outputs, s.inputs));
  }
  return results;
}

const lists = (from: number) => proxy.seen.slice(from).filter((l) => /^GET \S*\/(groups|alerts|reports)\?/.test(l));
const gets = (from: number) => proxy.seen.slice(from).filter((l) => /^GET \S*\/(groups|alerts|reports)\/[^/?]+$/.test(l));

describe("refresh by pages through the real host", () => {
  test("a burst reads from listings and answers exactly what the GET path answers", async () => {
    const h = await host();
    const stored = await createMany(h, ["CloudGroup", "BudgetAlert", "ScheduledReport"], 8);
    const from = proxy.seen.length;
    const paged = await burst(h, stored);
    expect(gets(from)).toEqual([]);
    expect(lists(from).length).toBeGreaterThanOrEqual(3);
    expect(lists(from).length).toBeLessThan(stored.length / 4);
    const sample = [stored[0]!, stored[9]!, stored[17]!];
    const viaGet = await oneByOne(h, sample);
    sample.forEach((s, k) => expect(paged[stored.indexOf(s)]).toEqual(viaGet[k]));
    expect(paged.every((r, i) => r.id === stored[i]!.id)).toBe(true);
  }, 90_000);

  test("a change and a delete made outside Pulumi right after a burst are seen by the next Read", async () => {
    const h = await host();
    const stored = await createMany(h, ["BudgetAlert"], 6);
    await burst(h, stored);
    const [changed, deleted] = [stored[0]!, stored[1]!];
    await api.replaceAlert(
      changed.id,
      AlertInput.parse({ ...BUDGET_ALERT_DEFAULTS, name: "changed outside", amount: 999, recipients: ["finops@example.com"] }),
    );
    await api.deleteAlert(deleted.id);
    await new Promise((r) => setTimeout(r, 1_000));
    const after = await burst(h, stored);
    expect(after[0]!.properties.amount).toBe(999);
    expect(after[0]!.inputs?.name).toBe("changed outside");
    expect(after[1]!.id).toBe("");
    expect(after.slice(2).every((r, i) => r.id === stored[i + 2]!.id)).toBe(true);
  }, 60_000);

  test("an update through the host right after a burst ends it: an immediate Read sees the new values, not the listing", async () => {
    const h = await host();
    const stored = await createMany(h, ["BudgetAlert"], 4);
    await burst(h, stored);
    // Inside the burst's idle window (no pause): without the write ending the burst, this Read would be
    // answered from the listing fetched before the update.
    const target = stored[0]!;
    const news = (await h.check(target.urn, target.inputs, { ...target.inputs, amount: 4321, __provider: texts.BudgetAlert })).inputs;
    const updated = await h.update(target.urn, target.id, target.outputs, news, target.inputs);
    const from = proxy.seen.length;
    const after = await burst(h, [{ ...target, outputs: updated }, ...stored.slice(1)]);
    expect(after[0]!.properties.amount).toBe(4321);
    expect(after.map((r) => r.id)).toEqual(stored.map((s) => s.id));
    expect(lists(from).length + gets(from).length).toBeGreaterThan(0);
  }, 60_000);

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
    const from = proxy.seen.length;
    const results = await burst(h, stored);
    expect(results.map((r) => r.id)).toEqual(stored.map((s) => s.id));
    expect(results.slice(1).map((r) => r.properties.amount)).toEqual(stored.slice(1).map((_, i) => 10 + i));
    const pages = lists(from);
    expect(pages.some((l) => l.includes("cursor="))).toBe(true);
    expect(gets(from)).toEqual([]);
    expect(proxy.seen.length - from).toBeLessThan(20);
  }, 120_000);

  test("a failing list endpoint: every Read falls back to its own GET and still answers correctly", async () => {
    const h = await host();
    const stored = await createMany(h, ["ScheduledReport", "CloudGroup"], 5);
    const expected = await oneByOne(h, [stored[0]!, stored[7]!]);
    proxy.listRule = () => ({ status: 500 });
    try {
      const from = proxy.seen.length;
      const results = await burst(h, stored);
      expect(results.map((r) => r.id)).toEqual(stored.map((s) => s.id));
      expect(results[0]).toEqual(expected[0]);
      expect(results[7]).toEqual(expected[1]);
      expect(gets(from).length).toBe(stored.length);
    } finally {
      proxy.listRule = undefined;
    }
  }, 90_000);

  test("a second page that fails, or a listing that leaves objects out: those objects are confirmed with a GET, never reported gone", async () => {
    const h = await host();
    const stored = await createMany(h, ["BudgetAlert"], 6);
    // The listing lacks two of them (a trimmed, "complete-looking" page).
    const left = new Set([stored[2]!.id, stored[4]!.id]);
    proxy.listRule = (_path, page) => ({ status: 200, page: { ...page, items: page.items.filter((a) => !left.has(String(a.id))) } });
    try {
      const from = proxy.seen.length;
      const results = await burst(h, stored);
      expect(results.map((r) => r.id)).toEqual(stored.map((s) => s.id));
      expect(gets(from).sort()).toEqual([...left].map((id) => `GET /api/v1/alerts/${id}`).sort());
    } finally {
      proxy.listRule = undefined;
    }
    // A listing whose second page fails is not used at all.
    await new Promise((r) => setTimeout(r, 1_000));
    proxy.listRule = (path, page) =>
      path.includes("cursor=") ? { status: 500 } : { status: 200, page: { items: page.items.slice(0, 1), nextCursor: "next" } };
    try {
      const results = await burst(h, stored);
      expect(results.map((r) => r.id)).toEqual(stored.map((s) => s.id));
    } finally {
      proxy.listRule = undefined;
    }
  }, 90_000);

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
    // An object of organization B in a burst read with A's credentials: absent from A's listing, 404 on GET,
    // and it belongs to B: the Read fails with a clear message instead of dropping it from state.
    await new Promise((r) => setTimeout(r, 1_000));
    const mixed = [...ownA, ownB[0]!];
    await expect(burst(hostA, mixed)).rejects.toThrow(/belongs to organization/);
    expect((await otherApi.getGroup(ownB[0]!.id)).id).toBe(ownB[0]!.id);
  }, 90_000);

  test("mixed credentials: resources created with an API token refresh from listings through OAuth client credentials of the same organization", async () => {
    const byToken = await host();
    const stored = await createMany(byToken, ["CloudGroup", "BudgetAlert", "ScheduledReport"], 3);
    const expected = await oneByOne(byToken, [stored[0]!, stored[4]!, stored[8]!]);
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
    expect([results[0], results[4], results[8]]).toEqual(expected);
    expect(gets(from)).toEqual([]);
    expect(proxy.seen.slice(from).filter((l) => l.startsWith("POST /oauth/token")).length).toBe(1);
  }, 90_000);
});
