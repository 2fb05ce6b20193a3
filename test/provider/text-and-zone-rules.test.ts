/**
 * Issue 37 §3: one definition per rule, the service's, held at the boundaries in every door. A name is
 * trimmed as JavaScript trims (ECMAScript WhiteSpace and LineTerminator, U+FEFF included) and then counted
 * in characters (Unicode code points: zod's `max`, JSON Schema's `maxLength`), so 100 emoji are a name and
 * 101 are not; a time zone is any name of the IANA database, canonical or link, kept as written. Each is
 * checked in the contract, the service (a real sandbox), and the two Pulumi doors as the engine drives them:
 * the dynamic-provider host and the native plugin, real processes over gRPC. The Go provider is held to the
 * same fixture and list (terraform-provider-cloudcost/internal/provider/contract_text_test.go).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CreateGroup, TimeZone } from "@cloudcost/api";
import {
  NATIVE_PLUGIN_ENTRY,
  REPO_ROOT,
  nativeUrn,
  providerText,
  secret,
  startProviderHost,
  startSandbox,
  urn,
  type ProviderHost,
  type ResourceKind,
  type RunningSandbox,
} from "@cloudcost/testkit";

type Json = Record<string, unknown>;
const fixture = JSON.parse(readFileSync(join(REPO_ROOT, "test/contract/fixtures/ecmascript-whitespace.json"), "utf8")) as {
  whitespace: number[];
  trim: [string, string][];
};

const EMOJI = "\u{1F4B8}"; // one character, two UTF-16 units
const emoji = (n: number) => EMOJI.repeat(n);
const REPORT = (extra: Json): Json => ({
  name: "Zones",
  report: "summary",
  schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
  recipients: ["finops@example.com"],
  ...extra,
});
const schedule = (timezone: string) => ({ frequency: "daily", time: "09:00", timezone });

describe("the service's whitespace, held to the runtime it runs on", () => {
  it("the fixture's whitespace is exactly what String.prototype.trim removes, code point by code point", () => {
    const runtime: number[] = [];
    for (let c = 0; c <= 0x10ffff; c++) if ((c < 0xd800 || c > 0xdfff) && String.fromCodePoint(c).trim() === "") runtime.push(c);
    expect(runtime).toEqual(fixture.whitespace);
    expect(fixture.whitespace).toEqual(expect.arrayContaining([0xfeff, 0x3000, 0x2028]));
    expect(fixture.whitespace).not.toContain(0x85);
  });

  it.each(fixture.trim)("the contract trims %j to %j", (input, trimmed) => {
    expect(input.trim()).toBe(trimmed);
    if (trimmed !== "") expect(CreateGroup.parse({ name: input }).name).toBe(trimmed);
    else expect(CreateGroup.safeParse({ name: input }).success).toBe(false);
  });
});

describe("the contract counts characters and names every IANA zone", () => {
  it.each([
    ["a name of 100 emoji", { name: emoji(100) }, true],
    ["a name of 101 emoji", { name: emoji(101) }, false],
    ["a name of 100 emoji inside U+FEFF and U+3000", { name: `\uFEFF${emoji(100)}\u3000` }, true],
    ["a description of 500 emoji", { name: "g", description: emoji(500) }, true],
    ["a description of 501 emoji", { name: "g", description: emoji(501) }, false],
  ])("%s: %s", (_what, body, ok) => {
    expect(CreateGroup.safeParse(body).success).toBe(ok);
  });

  it.each(["Asia/Kolkata", "Asia/Calcutta", "Europe/Kyiv", "Europe/Kiev", "UTC", "Etc/GMT+5"])("accepts %s as written", (zone) => {
    expect(TimeZone.parse(zone)).toBe(zone);
  });

  it.each(["PST", "IST", "europe/berlin", "+05:30", "Factory", "Local"])("refuses %s (no name of the IANA database)", (zone) => {
    expect(TimeZone.safeParse(zone).success).toBe(false);
  });
});

describe("the service and both Pulumi doors agree", () => {
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  it("the service stores 100 emoji as a name and refuses 101; zones as written", async () => {
    const post = (path: string, json: Json) =>
      fetch(`${sandbox.baseUrl}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(json),
      });
    const ok = await post("/groups", { name: `\uFEFF${emoji(100)}`, description: emoji(500) });
    expect([ok.status, ((await ok.json()) as Json).name]).toEqual([201, emoji(100)]);
    expect((await post("/groups", { name: emoji(101) })).status).toBe(400);
    expect((await post("/groups", { name: "d", description: emoji(501) })).status).toBe(400);
    for (const zone of ["Asia/Kolkata", "Europe/Kyiv", "Asia/Calcutta"]) {
      const created = await post("/reports", REPORT({ name: zone, schedule: schedule(zone) }));
      const body = (await created.json()) as { schedule: { timezone: string }; nextRunAt: string };
      expect([created.status, body.schedule.timezone]).toEqual([201, zone]);
      // 09:00 in India is 03:30 UTC; in Kyiv 06:00 or 07:00 UTC: computed in the zone named.
      expect(body.nextRunAt).toMatch(zone === "Europe/Kyiv" ? /T0[67]:00:00/ : /T03:30:00/);
    }
  });

  const doors: [string, (kind: ResourceKind, name: string) => string, () => Promise<ProviderHost>, boolean][] = [
    ["dynamic", urn, () => startProviderHost(), true],
    ["native", nativeUrn, () => startProviderHost({ entry: NATIVE_PLUGIN_ENTRY }), false],
  ];

  describe.each(doors)("the %s door", (_door, urnOf, start, dynamic) => {
    let host: ProviderHost;
    beforeAll(async () => {
      host = await start();
      // The host takes stack config (namespaced keys), the plugin its provider's inputs (Configure's args).
      await host.configure(
        dynamic
          ? { "cloudcost:apiUrl": sandbox.baseUrl, "cloudcost:apiToken": secret(token) }
          : { apiUrl: sandbox.baseUrl, apiToken: secret(token) },
      );
    });
    afterAll(() => host.stop());
    const inputs = async (kind: ResourceKind, news: Json): Promise<Json> =>
      dynamic ? { ...news, __provider: await providerText(kind) } : news;
    const failing = async (kind: ResourceKind, news: Json): Promise<string[]> =>
      (await host.check(urnOf(kind, "x"), {}, await inputs(kind, news))).failures.map((f) => f.property);

    it.each([
      ["CloudGroup", { name: emoji(100), description: emoji(500) }, []],
      ["CloudGroup", { name: emoji(101) }, ["name"]],
      ["CloudGroup", { name: "g", description: emoji(501) }, ["description"]],
      ["BudgetAlert", { name: `\uFEFF${emoji(100)}`, amount: 10 }, []],
      ["BudgetAlert", { name: emoji(101), amount: 10 }, ["name"]],
      ["BudgetAlert", { name: "\uFEFF\u2028", amount: 10 }, ["name"]],
      ["ScheduledReport", REPORT({ name: emoji(100) }), []],
      ["ScheduledReport", REPORT({ name: emoji(101) }), ["name"]],
      ["ScheduledReport", REPORT({ schedule: schedule("Asia/Kolkata") }), []],
      ["ScheduledReport", REPORT({ schedule: schedule("Europe/Kyiv") }), []],
      ["ScheduledReport", REPORT({ schedule: schedule("PST") }), ["schedule.timezone"]],
    ] as [ResourceKind, Json, string[]][])("check of a %s %j fails on %j", async (kind, news, properties) => {
      expect(await failing(kind, news)).toEqual(properties);
    });

    it("creates a group named with U+FEFF and emoji, and a report in Europe/Kyiv, as written", async () => {
      const group = await host.check(urnOf("CloudGroup", "g"), {}, await inputs("CloudGroup", { name: `\uFEFF${emoji(80)} ${_door}` }));
      expect(group.failures).toEqual([]);
      const created = await host.create(urnOf("CloudGroup", "g"), group.inputs);
      expect(created.properties.name).toBe(`\uFEFF${emoji(80)} ${_door}`.trim());
      const report = await host.check(
        urnOf("ScheduledReport", "r"),
        {},
        await inputs("ScheduledReport", REPORT({ name: `Kyiv ${_door}`, schedule: schedule("Europe/Kyiv") })),
      );
      expect(report.failures).toEqual([]);
      const made = await host.create(urnOf("ScheduledReport", "r"), report.inputs);
      expect((made.properties.schedule as Json).timezone).toBe("Europe/Kyiv");
      await host.delete(urnOf("ScheduledReport", "r"), made.id, made.properties);
      await host.delete(urnOf("CloudGroup", "g"), created.id, created.properties);
    });
  });
});
