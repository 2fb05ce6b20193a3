import { AlertInput, CloudCostClient, closeAllPools, z } from "@cloudcost/api";
import {
  providerTexts,
  secret,
  startConfiguredHost,
  startProviderHost,
  urn,
  type ProviderHost,
  type ResourceKind,
  startSandbox,
  type RunningSandbox,
} from "@cloudcost/testkit";

type Json = Record<string, unknown>;

let sandbox: RunningSandbox;
let token: string;
let api: CloudCostClient;
let host: ProviderHost;
let providers: Record<ResourceKind, string>;

beforeAll(async () => {
  sandbox = await startSandbox();
  token = await sandbox.token();
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  providers = await providerTexts();
  host = await startConfiguredHost(sandbox.baseUrl, token);
});
afterAll(async () => {
  await host?.stop();
  await sandbox?.dispose();
  await closeAllPools();
});

/** What the engine does for a new resource: Check, then Create with the checked inputs. */
async function checkAndCreate(h: ProviderHost, kind: ResourceKind, name: string, inputs: Json) {
  const u = urn(kind, name);
  const checked = await h.check(u, {}, { ...inputs, __provider: providers[kind] });
  expect(checked.failures).toEqual([]);
  const created = await h.create(u, checked.inputs);
  return { urn: u, id: created.id, inputs: checked.inputs, outputs: created.properties };
}

function withoutProvider(o: Json): Json {
  const { __provider: _p, ...rest } = o;
  return rest;
}

const groupInputs = {
  name: "Platform",
  description: "platform team",
  azureSubscriptionIds: ["0B1F6471-1BF0-4DDA-AEC3-CB9272F09590"],
  awsAccountIds: ["444455556666", "111122223333"],
};
const reportInputs = {
  name: "Weekly summary",
  report: "summary",
  schedule: { frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "Europe/Berlin" },
  recipients: ["FinOps@example.com"],
};

describe("CloudGroup over gRPC", () => {
  it("creates with members, reads, converges, updates only what changed, shows drift and deletes", async () => {
    const g = await checkAndCreate(host, "CloudGroup", "platform", groupInputs);
    expect(withoutProvider(g.outputs)).toMatchObject({
      name: "Platform",
      description: "platform team",
      azureSubscriptionIds: ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"],
      awsAccountIds: ["111122223333", "444455556666"],
      source: "api",
    });
    expect((await api.getGroup(g.id)).members).toHaveLength(3);

    const read = await host.read(g.urn, g.id, g.outputs);
    expect(read.id).toBe(g.id);
    expect((await host.diff(g.urn, g.id, read.properties, g.inputs)).changes).toBe("none");

    const news = (await host.check(g.urn, g.inputs, { ...groupInputs, awsAccountIds: ["111122223333"], __provider: providers.CloudGroup }))
      .inputs;
    const diff = await host.diff(g.urn, g.id, read.properties, news);
    // Names are unique on the service: were the engine to replace a group, it must delete the old one first.
    // A change is DIFF_UNKNOWN: the engine then diffs the inputs itself and knows which changed (handlers.ts, issue 33).
    expect(diff).toEqual({ changes: "unknown", replaces: [], deleteBeforeReplace: true });
    const updated = await host.update(g.urn, g.id, read.properties, news);
    expect(updated.awsAccountIds).toEqual(["111122223333"]);
    expect(updated.name).toBe("Platform");

    // Drift made in the portal/API shows after Read, in outputs and inputs.
    await api.updateGroup(g.id, { description: "changed by hand" });
    const drifted = await host.read(g.urn, g.id, updated);
    expect(drifted.properties.description).toBe("changed by hand");
    expect(drifted.inputs?.description).toBe("changed by hand");
    expect((await host.diff(g.urn, g.id, drifted.properties, news)).changes).toBe("unknown");

    await host.delete(g.urn, g.id, drifted.properties);
    await expect(api.getGroup(g.id)).rejects.toMatchObject({ status: 404 });
  });

  it("drops a group deleted out of band on Read, and deleting it again succeeds", async () => {
    const g = await checkAndCreate(host, "CloudGroup", "gone", { name: "Gone soon" });
    await api.deleteGroup(g.id);
    expect((await host.read(g.urn, g.id, g.outputs)).id).toBe("");
    await expect(host.delete(g.urn, g.id, g.outputs)).resolves.toBeUndefined();
  });

  it("fails Create for an account that is not connected, leaving no half-made group", async () => {
    const u = urn("CloudGroup", "stranger");
    const news = { name: "Stranger", awsAccountIds: ["999999999999"], __provider: providers.CloudGroup };
    // Issue 38: Check meets the service's rule first (its dry-run); Create, sent such inputs anyway (a preview
    // that could not ask the service), still refuses them and leaves nothing half-made.
    const checked = await host.check(u, {}, news);
    expect(checked.failures).toEqual([{ property: "awsAccountIds[0]", reason: expect.stringContaining("not connected") as string }]);
    await expect(host.create(u, { ...news, description: "", azureSubscriptionIds: [] })).rejects.toThrow(
      /999999999999|not connected|unknown/i,
    );
    const names: string[] = [];
    for await (const grp of api.listGroups()) names.push(grp.name);
    expect(names).not.toContain("Stranger");
  });

  it("adopts a group made in the portal and makes it match the program", async () => {
    const existing = await api.createGroup({ name: "Made by hand", description: "old" });
    const g = await checkAndCreate(host, "CloudGroup", "adopted", {
      name: "Made by hand",
      description: "now managed",
      awsAccountIds: ["777788889999"],
      adoptId: existing.id,
    });
    expect(g.id).toBe(existing.id);
    const live = await api.getGroup(existing.id);
    expect(live).toMatchObject({ description: "now managed", members: [{ provider: "aws", accountId: "777788889999" }] });
    await host.delete(g.urn, g.id, g.outputs);
  });

  it("fails adoption of an id that does not exist with a clear message", async () => {
    const u = urn("CloudGroup", "ghost");
    const checked = await host.check(u, {}, { name: "Ghost", adoptId: "grp_0000000000000000", __provider: providers.CloudGroup });
    await expect(host.create(u, checked.inputs)).rejects.toThrow("adoptId grp_0000000000000000: no such CloudGroup exists to adopt");
  });

  it("rejects bad inputs in Check, naming the field, before any API call", async () => {
    const r = await host.check(urn("CloudGroup", "bad"), {}, { name: "", awsAccountIds: ["12"], __provider: providers.CloudGroup });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["awsAccountIds[0]", "name"]);
  });
});

describe("BudgetAlert over gRPC", () => {
  it("creates, converges, updates, shows drift and deletes; the webhook never leaks into __provider", async () => {
    const group = await checkAndCreate(host, "CloudGroup", "alerts-group", { name: "Alerts group", awsAccountIds: ["111122223333"] });
    const webhookUrl = "https://hooks.example.com/T0/very-secret-path";
    const a = await checkAndCreate(host, "BudgetAlert", "budget", {
      name: "Budget",
      amount: 1000,
      groupId: group.id,
      recipients: ["B@example.com", "a@example.com"],
      webhookUrl,
      thresholds: [
        { percent: 90, basis: "forecast" },
        { percent: 80, basis: "actual" },
      ],
    });
    expect(withoutProvider(a.outputs)).toMatchObject({
      name: "Budget",
      amount: 1000,
      currency: "USD",
      period: "monthly",
      groupId: group.id,
      recipients: ["a@example.com", "b@example.com"],
      thresholds: [
        { percent: 80, basis: "actual" },
        { percent: 90, basis: "forecast" },
      ],
      webhookUrl,
      enabled: true,
    });
    for (const k of [
      "effectiveAmount",
      "effectiveAmountSource",
      "active",
      "currentSpend",
      "forecastedSpend",
      "spendCurrency",
      "periodStart",
      "periodEnd",
      "createdAt",
      "updatedAt",
    ])
      expect(a.outputs[k]).toBeDefined();
    expect(a.outputs.__provider).not.toContain(webhookUrl);
    expect(a.outputs.__provider).not.toContain(token);

    const read = await host.read(a.urn, a.id, a.outputs);
    expect((await host.diff(a.urn, a.id, read.properties, a.inputs)).changes).toBe("none");
    // Read gives back every input, the webhook included (the engine keeps it secret: annotateSecrets).
    expect(read.inputs).toHaveProperty("webhookUrl", webhookUrl);

    const news = (await host.check(a.urn, a.inputs, { ...a.inputs, amount: 1500.5, enabled: false })).inputs;
    const updated = await host.update(a.urn, a.id, read.properties, news);
    expect(updated).toMatchObject({ amount: 1500.5, enabled: false, webhookUrl });

    const live = await api.getAlert(a.id);
    // The live alert's inputs, as the contract names them (its outputs left out).
    await api.replaceAlert(a.id, { ...z.object(AlertInput.shape).parse(live), name: "Renamed in the portal" });
    const drifted = await host.read(a.urn, a.id, updated);
    expect(drifted.properties.name).toBe("Renamed in the portal");
    expect((await host.diff(a.urn, a.id, drifted.properties, news)).changes).toBe("unknown");

    await host.delete(a.urn, a.id, drifted.properties);
    await expect(host.delete(a.urn, a.id, drifted.properties)).resolves.toBeUndefined();
    await host.delete(group.urn, group.id, group.outputs);
  });

  it("drops an alert deleted out of band on Read", async () => {
    const a = await checkAndCreate(host, "BudgetAlert", "gone", { name: "Gone", amount: 5 });
    await api.deleteAlert(a.id);
    expect((await host.read(a.urn, a.id, a.outputs)).id).toBe("");
    await host.delete(a.urn, a.id, a.outputs);
  });

  it("adopts an existing alert", async () => {
    const existing = await api.createAlert({
      name: "Portal alert",
      amount: 10,
      currency: "EUR",
      period: "annual",
      thresholds: [{ percent: 50, basis: "actual" }],
    });
    const a = await checkAndCreate(host, "BudgetAlert", "adopted", {
      name: "Portal alert",
      amount: 20,
      currency: "EUR",
      period: "annual",
      adoptId: existing.id,
    });
    expect(a.id).toBe(existing.id);
    expect(await api.getAlert(existing.id)).toMatchObject({ amount: 20, thresholds: [{ percent: 100, basis: "actual" }] });
    await host.delete(a.urn, a.id, a.outputs);
  });

  it("rejects bad inputs in Check, naming the field", async () => {
    const r = await host.check(
      urn("BudgetAlert", "bad"),
      {},
      { name: "Bad", amount: 0, thresholds: [{ percent: 2000, basis: "actual" }], __provider: providers.BudgetAlert },
    );
    expect(r.failures.map((f) => f.property).sort()).toEqual(["amount", "thresholds[0].percent"]);
  });
});

describe("ScheduledReport over gRPC", () => {
  it("creates, converges, updates, shows drift and deletes", async () => {
    const r = await checkAndCreate(host, "ScheduledReport", "weekly", reportInputs);
    expect(withoutProvider(r.outputs)).toMatchObject({
      name: "Weekly summary",
      report: "summary",
      groupId: null,
      format: "csv",
      recipients: ["finops@example.com"],
      enabled: true,
      schedule: { frequency: "weekly", dayOfWeek: "monday", dayOfMonth: null, time: "08:00", timezone: "Europe/Berlin" },
    });
    expect(typeof r.outputs.nextRunAt).toBe("string");

    const read = await host.read(r.urn, r.id, r.outputs);
    expect((await host.diff(r.urn, r.id, read.properties, r.inputs)).changes).toBe("none");

    const news = (
      await host.check(r.urn, r.inputs, {
        ...reportInputs,
        format: "pdf",
        schedule: { frequency: "monthly", dayOfMonth: 31, time: "07:00", timezone: "UTC" },
        __provider: providers.ScheduledReport,
      })
    ).inputs;
    const updated = await host.update(r.urn, r.id, read.properties, news);
    expect(updated).toMatchObject({ format: "pdf", schedule: { frequency: "monthly", dayOfMonth: 31, dayOfWeek: null } });

    const live = await api.getReport(r.id);
    await api.replaceReport(r.id, {
      name: live.name,
      report: live.report,
      groupId: live.groupId,
      schedule: live.schedule,
      format: live.format,
      recipients: live.recipients,
      enabled: false,
    });
    const drifted = await host.read(r.urn, r.id, updated);
    expect(drifted.properties).toMatchObject({ enabled: false, nextRunAt: null });
    expect(drifted.inputs?.enabled).toBe(false);
    expect((await host.diff(r.urn, r.id, drifted.properties, news)).changes).toBe("unknown");

    await host.delete(r.urn, r.id, drifted.properties);
    expect((await host.read(r.urn, r.id, drifted.properties)).id).toBe("");
  });

  it("rejects bad inputs in Check, naming the field", async () => {
    const r = await host.check(
      urn("ScheduledReport", "bad"),
      {},
      { ...reportInputs, schedule: { frequency: "monthly", time: "7am", timezone: "UTC" }, __provider: providers.ScheduledReport },
    );
    expect(r.failures.map((f) => f.property).sort()).toEqual(["schedule.dayOfMonth", "schedule.time"]);
  });
});

describe("configuration and credentials", () => {
  it("works with OAuth client credentials from secret config, and no output holds a secret", async () => {
    const oauth = await sandbox.client();
    const h = await startProviderHost();
    try {
      await h.configure({
        "cloudcost:apiUrl": sandbox.baseUrl,
        "cloudcost:clientId": oauth.client_id,
        "cloudcost:clientSecret": secret(oauth.client_secret),
      });
      const r = await checkAndCreate(h, "ScheduledReport", "oauth", { ...reportInputs, name: "Via OAuth" });
      const text = JSON.stringify(r.outputs);
      expect(text).not.toContain(oauth.client_secret);
      expect(text).not.toContain(token);
      await h.delete(r.urn, r.id, r.outputs);
    } finally {
      await h.stop();
    }
  });

  it("falls back to CLOUDCOST_* environment variables", async () => {
    const h = await startProviderHost({ env: { CLOUDCOST_API_URL: sandbox.baseUrl, CLOUDCOST_API_TOKEN: token } });
    try {
      await h.configure({});
      const g = await checkAndCreate(h, "CloudGroup", "env", { name: "From env" });
      await h.delete(g.urn, g.id, g.outputs);
    } finally {
      await h.stop();
    }
  });

  it("names the missing setting when there is no configuration", async () => {
    const h = await startProviderHost({ env: { CLOUDCOST_API_URL: "", CLOUDCOST_API_TOKEN: "" } });
    try {
      await h.configure({});
      const u = urn("CloudGroup", "unconfigured");
      const checked = await h.check(u, {}, { name: "x", __provider: providers.CloudGroup });
      expect(checked.failures).toEqual([]);
      await expect(h.create(u, checked.inputs)).rejects.toThrow("cloudcost:apiUrl (or CLOUDCOST_API_URL) is not set");
    } finally {
      await h.stop();
    }
  });

  it.each([
    [
      "the portal",
      (o: string) => `${o}/portal/groups`,
      /cloudcost:apiUrl \(or CLOUDCOST_API_URL\) points at the portal .*; set it to the API base URL http:\/\/127\.0\.0\.1:\d+\/api\/v1$/,
    ],
    [
      "another path",
      (o: string) => `${o}/v1`,
      /must be the API base URL ending in \/api\/v1, such as http:\/\/127\.0\.0\.1:\d+\/api\/v1; got/,
    ],
    ["no URL at all", () => "cloudcost.example.com", /must be an absolute URL such as https:\/\/cloudcost\.example\.com\/api\/v1/],
  ])("refuses an apiUrl pointing at %s, saying exactly what to set", async (_what, apiUrl, message) => {
    const h = await startProviderHost();
    try {
      await h.configure({ "cloudcost:apiUrl": apiUrl(new URL(sandbox.baseUrl).origin), "cloudcost:apiToken": secret(token) });
      const u = urn("CloudGroup", "wrong-url");
      const attempt = (async () => {
        const checked = await h.check(u, {}, { name: "x", __provider: providers.CloudGroup });
        await h.create(u, checked.inputs);
      })();
      await expect(attempt).rejects.toThrow(message);
    } finally {
      await h.stop();
    }
  });

  it.each([
    ["a bare origin", (o: string) => o],
    ["a trailing slash", (o: string) => `${o}/api/v1/`],
  ])("accepts an apiUrl with %s, which is unambiguous", async (_what, apiUrl) => {
    const h = await startProviderHost();
    try {
      await h.configure({ "cloudcost:apiUrl": apiUrl(new URL(sandbox.baseUrl).origin), "cloudcost:apiToken": secret(token) });
      const g = await checkAndCreate(h, "CloudGroup", "lenient-url", { name: "Lenient URL" });
      await h.delete(g.urn, g.id, g.outputs);
    } finally {
      await h.stop();
    }
  });

  it("asks for the client secret once, naming the command that sets it", async () => {
    const h = await startProviderHost({ env: { CLOUDCOST_API_TOKEN: "" } });
    try {
      await h.configure({ "cloudcost:apiUrl": sandbox.baseUrl, "cloudcost:clientId": "someone" });
      const u = urn("CloudGroup", "half-credentials");
      const checked = await h.check(u, {}, { name: "x", __provider: providers.CloudGroup });
      const error = await h.create(u, checked.inputs).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(
        /cloudcost:clientId is set, so cloudcost:clientSecret is needed too: set it with `pulumi config set --secret cloudcost:clientSecret VALUE`, or CLOUDCOST_CLIENT_SECRET/,
      );
      expect(error?.message.match(/clientSecret/g)).toHaveLength(2);
    } finally {
      await h.stop();
    }
  });

  it("fails with a clear message when the API token was revoked", async () => {
    const doomed = await sandbox.token();
    const h = await startProviderHost();
    try {
      await h.configure({ "cloudcost:apiUrl": sandbox.baseUrl, "cloudcost:apiToken": secret(doomed) });
      const g = await checkAndCreate(h, "CloudGroup", "before-revoke", { name: "Before revoke" });
      expect((await sandbox.cli(["token", "revoke", "--org", "demo", doomed])).code).toBe(0);
      const err = (await h.read(g.urn, g.id, g.outputs).catch((e: unknown) => e)) as Error;
      expect(err.message).toMatch(/401/);
      expect(err.message).toContain("credentials were rejected");
      expect(err.message).not.toContain(doomed);
      await api.deleteGroup(g.id);
    } finally {
      await h.stop();
    }
  });
});

describe("client credentials with expiring tokens (serve --token-ttl 2)", () => {
  it("keeps working after the access token expires", async () => {
    const short = await startSandbox({ args: ["--token-ttl", "2"] });
    const h = await startProviderHost();
    try {
      const oauth = await short.client();
      await h.configure({
        "cloudcost:apiUrl": short.baseUrl,
        "cloudcost:clientId": oauth.client_id,
        "cloudcost:clientSecret": secret(oauth.client_secret),
      });
      const g = await checkAndCreate(h, "CloudGroup", "ttl", { name: "Short tokens" });
      await new Promise((r) => setTimeout(r, 2_200));
      expect((await h.read(g.urn, g.id, g.outputs)).id).toBe(g.id);
      await h.delete(g.urn, g.id, g.outputs);
    } finally {
      await h.stop();
      await short.dispose();
    }
  });
});
