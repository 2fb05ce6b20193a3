import {
  NATIVE_PLUGIN_ENTRY,
  UNKNOWN,
  providerText,
  secret,
  startProviderHost,
  startSandbox,
  urn,
  type ProviderHost,
  type ResourceKind,
  type RunningSandbox,
} from "@cloudcost/testkit";
import { DEMO_AWS, call, fields } from "../sandbox/api-client";
import { databaseFingerprint } from "../sandbox/database-fingerprint";

/**
 * Issue 38: the service's own rules at preview, in both Pulumi doors — the dynamic provider (the real
 * `@pulumi/pulumi` dynamic-provider host) and the native plugin (`native/bin/pulumi-resource-cloudcost`),
 * each driven over gRPC as the engine drives it. Check of a create or a change meets every rule of the
 * organization (422, and a rename's 409) on the input property the service names, with the message the real
 * request gets (asked of the sandbox directly), and writes nothing. An unchanged resource, an input still
 * unknown, or a host without credentials is not judged: the preview goes on.
 */

type Json = Record<string, unknown>;
const NOT_CONNECTED = "999999999999";
const OUTSIDE_SCOPE = DEMO_AWS[0]; // connected, not a member of the scope group
const IN_SCOPE = DEMO_AWS[1];
const UNKNOWN_GROUP = "grp_0000000000000000000000";

interface Door {
  name: string;
  start(sandbox: RunningSandbox, token: string | undefined): Promise<ProviderHost>;
  urn(kind: ResourceKind, name: string): string;
  /** What a program sends as the inputs of one resource, in this door's form. */
  news(kind: ResourceKind, inputs: Json): Promise<Json>;
}

const DOORS: Door[] = [
  {
    name: "dynamic provider",
    async start(sandbox, token) {
      // No credentials from the environment: only what Configure gives.
      const host = await startProviderHost({ env: { CLOUDCOST_API_TOKEN: "", CLOUDCOST_CLIENT_ID: "", CLOUDCOST_CLIENT_SECRET: "" } });
      await host.configure({ "cloudcost:apiUrl": sandbox.baseUrl, ...(token ? { "cloudcost:apiToken": secret(token) } : {}) });
      return host;
    },
    urn,
    news: async (kind, inputs) => ({ ...inputs, __provider: await providerText(kind) }),
  },
  {
    name: "native plugin",
    async start(sandbox, token) {
      const host = await startProviderHost({
        entry: NATIVE_PLUGIN_ENTRY,
        env: { CLOUDCOST_API_TOKEN: "", CLOUDCOST_CLIENT_ID: "", CLOUDCOST_CLIENT_SECRET: "" },
      });
      await host.configure({ apiUrl: sandbox.baseUrl, ...(token ? { apiToken: secret(token) } : {}) });
      return host;
    },
    urn: (kind, name) => `urn:pulumi:test::cloudcost-test::cloudcost:index:${kind}::${name}`,
    news: async (_kind, inputs) => inputs,
  },
];

const alertInputs = (extra: Json = {}): Json => ({
  name: "Preview alert",
  amount: 10,
  currency: "USD",
  period: "monthly",
  thresholds: [{ percent: 100, basis: "actual" }],
  ...extra,
});
const reportInputs = (extra: Json = {}): Json => ({
  name: "Preview report",
  report: "summary",
  schedule: { frequency: "daily", time: "06:00", timezone: "UTC" },
  recipients: ["finops@example.com"],
  ...extra,
});

/** One rule of the organization on an alert's or a report's group and filters: the inputs, and where it lands. */
interface FilterRule {
  code: string;
  extra: (scope: string) => Json;
  property: string;
  fieldPath: string;
}
const FILTER_RULES: FilterRule[] = [
  { code: "unknown_group", extra: () => ({ groupId: UNKNOWN_GROUP }), property: "groupId", fieldPath: "body.groupId" },
  {
    code: "unknown_account",
    extra: () => ({ filters: { accountIds: [NOT_CONNECTED] } }),
    property: "filters.accountIds[0]",
    fieldPath: "body.filters.accountIds.0",
  },
  {
    code: "not_in_group",
    extra: (scope) => ({ groupId: scope, filters: { accountIds: [OUTSIDE_SCOPE] } }),
    property: "filters.accountIds[0]",
    fieldPath: "body.filters.accountIds.0",
  },
  {
    code: "no_account_of_provider",
    extra: (scope) => ({ groupId: scope, filters: { providers: ["azure"], services: ["Virtual Machines"], regions: ["westeurope"] } }),
    property: "filters.providers[0]",
    fieldPath: "body.filters.providers.0",
  },
  {
    code: "unknown_tag_key",
    extra: () => ({ filters: { tags: [{ key: "owner", values: ["x"] }] } }),
    property: "filters.tags[0].key",
    fieldPath: "body.filters.tags.0.key",
  },
];

describe.each(DOORS)("the service's rules at preview: $name (issue 38)", (door) => {
  let sandbox: RunningSandbox;
  let token: string;
  let host: ProviderHost;
  let scope: string;
  let mine: string;
  const taken = "Preview taken";

  /** The failure `up` would get from the real request: the service's message, code and path at `fieldPath`. */
  async function atApply(method: string, path: string, json: unknown, fieldPath: string): Promise<string> {
    const reply = await call(sandbox, method, path, { token, json });
    expect([409, 422]).toContain(reply.status);
    const error = (fields(reply).errors as { path: string; code: string; message: string }[]).find((e) => e.path === fieldPath);
    if (!error) throw new Error(`${method} ${path}: no field error at ${fieldPath}: ${reply.text}`);
    return `${error.message} (${error.code}: ${error.path})`;
  }
  async function check(kind: ResourceKind, olds: Json, inputs: Json) {
    const news = await door.news(kind, inputs);
    return host.check(door.urn(kind, "r"), Object.keys(olds).length ? await door.news(kind, olds) : {}, news);
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
    const made = async (path: string, json: unknown) => String(fields(await call(sandbox, "POST", path, { token, json })).id);
    await made("/groups", { name: taken });
    scope = await made("/groups", { name: "Preview scope" });
    mine = await made("/groups", { name: "Preview mine" });
    expect(
      (await call(sandbox, "PUT", `/groups/${scope}/members`, { token, json: { members: [{ provider: "aws", accountId: IN_SCOPE }] } }))
        .status,
    ).toBe(200);
    host = await door.start(sandbox, token);
  });
  afterAll(async () => {
    await host?.stop();
    await sandbox?.dispose();
  });

  describe.each([
    ["BudgetAlert", alertInputs, "/alerts"],
    ["ScheduledReport", reportInputs, "/reports"],
  ] as const)("%s", (kind, inputs, plural) => {
    it.each(FILTER_RULES)("a create meeting $code fails on $property with the service's message, writing nothing", async (rule) => {
      const before = databaseFingerprint(sandbox.dataDir);
      const checked = await check(kind, {}, inputs(rule.extra(scope)));
      expect(databaseFingerprint(sandbox.dataDir)).toBe(before);
      const reason = await atApply("POST", plural, inputs(rule.extra(scope)), rule.fieldPath);
      expect(checked.failures).toContainEqual({ property: rule.property, reason });
    });
    it("a change meeting a rule fails the same way; an unchanged one is not judged", async () => {
      const rule = FILTER_RULES[1]!;
      // The engine stores Check's answer as the inputs: the checked form, defaults filled in.
      const stored = (await check(kind, {}, inputs())).inputs;
      const bad = { ...stored, ...rule.extra(scope) };
      const reason = await atApply("POST", plural, inputs(rule.extra(scope)), rule.fieldPath);
      expect((await check(kind, stored, bad)).failures).toEqual([{ property: rule.property, reason }]);
      // The same inputs stored and declared: nothing is sent, so nothing is judged (no request per unchanged resource).
      expect((await check(kind, bad, bad)).failures).toEqual([]);
    });
    it("inputs still unknown are not judged, and a valid create passes", async () => {
      expect((await check(kind, {}, inputs({ groupId: UNKNOWN, filters: { accountIds: [NOT_CONNECTED] } }))).failures).toEqual([]);
      expect((await check(kind, {}, inputs())).failures).toEqual([]);
    });
  });

  describe("CloudGroup", () => {
    it("a create with a member not connected fails on awsAccountIds[i], writing nothing", async () => {
      const before = databaseFingerprint(sandbox.dataDir);
      const checked = await check("CloudGroup", {}, { name: "Preview new", awsAccountIds: [IN_SCOPE, NOT_CONNECTED] });
      expect(databaseFingerprint(sandbox.dataDir)).toBe(before);
      const members = [IN_SCOPE, NOT_CONNECTED].map((accountId) => ({ provider: "aws", accountId }));
      const reason = await atApply("PUT", `/groups/${scope}/members`, { members }, "body.members.1.accountId");
      expect(checked.failures).toEqual([{ property: "awsAccountIds[1]", reason }]);
    });
    it("a rename to a taken name fails on name with the PATCH's message; the group's own name in another case passes", async () => {
      const olds = { name: "Preview mine", description: "", awsAccountIds: [], azureSubscriptionIds: [] };
      const reason = await atApply("PATCH", `/groups/${mine}`, { name: taken }, "body.name");
      expect((await check("CloudGroup", olds, { ...olds, name: taken })).failures).toEqual([{ property: "name", reason }]);
      expect((await check("CloudGroup", olds, { ...olds, name: "PREVIEW MINE" })).failures).toEqual([]);
    });
    it("a change of the member set is judged, an unchanged one is not", async () => {
      const olds = { name: "Preview mine", description: "", awsAccountIds: [NOT_CONNECTED], azureSubscriptionIds: [] };
      expect((await check("CloudGroup", olds, { ...olds, description: "changed" })).failures).toEqual([]);
      const members = [{ provider: "aws", accountId: NOT_CONNECTED }];
      const reason = await atApply("PUT", `/groups/${mine}/members`, { members }, "body.members.0.accountId");
      expect((await check("CloudGroup", { ...olds, awsAccountIds: [] }, olds)).failures).toEqual([
        { property: "awsAccountIds[0]", reason },
      ]);
    });
    it("a create whose name is taken is left to `up`: Check cannot tell it from a --target-replace of the group holding it", async () => {
      expect((await check("CloudGroup", {}, { name: taken })).failures).toEqual([]);
    });
  });

  it("a host without credentials previews without the service's checks", async () => {
    const bare = await door.start(sandbox, undefined);
    try {
      const news = await door.news("BudgetAlert", alertInputs({ filters: { accountIds: [NOT_CONNECTED] } }));
      expect((await bare.check(door.urn("BudgetAlert", "bare"), {}, news)).failures).toEqual([]);
    } finally {
      await bare.stop();
    }
  });
});
