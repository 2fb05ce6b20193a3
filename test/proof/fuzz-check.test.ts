import fc from "fast-check";
import { AlertInput, AwsAccountId, AzureSubscriptionId, CreateGroup, ReportInput } from "@cloudcost/api";
import { providerTexts, ResourceKind, startProviderHost, ProviderHost, UNKNOWN, urn } from "@cloudcost/testkit";
import { FUZZ_RUNS } from "./support/soak";

type Json = Record<string, unknown>;

/** Values for one input: the preview sentinel and anything JSON can hold. */
const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(UNKNOWN), fc.string({ maxLength: 300 }), fc.double(), fc.integer());

/** Mostly a well-formed value (so accepted inputs are explored too), sometimes anything. */
const field = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 6 }, { arbitrary: anyValue, weight: 1 });

/** A record with its required keys present most of the time, and any key missing now and then. */
function inputs(fields: Record<string, fc.Arbitrary<unknown>>, requiredKeys: string[]): fc.Arbitrary<Json> {
  return fc.oneof(
    { arbitrary: fc.record(fields, { requiredKeys }), weight: 5 },
    { arbitrary: fc.record(fields, { requiredKeys: [] }), weight: 1 },
  );
}

const name = fc.string({ minLength: 1, maxLength: 110 });
const emails = fc.uniqueArray(fc.stringMatching(/^[a-zA-Z0-9]{1,12}@example\.(com|org)$/), { maxLength: 3 });
const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }))
  .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);
const timezone = fc.constantFrom("UTC", "Europe/Berlin", "America/New_York", "Mars/Olympus");
const schedule = fc.oneof(
  fc.record({ frequency: fc.constant("daily"), time: hhmm, timezone }),
  fc.record({ frequency: fc.constant("weekly"), dayOfWeek: fc.constantFrom("monday", "sunday", "funday"), time: hhmm, timezone }),
  fc.record({ frequency: fc.constant("monthly"), dayOfMonth: fc.integer({ min: 0, max: 32 }), time: hhmm, timezone }),
  fc.record(
    {
      frequency: fc.constantFrom("daily", "weekly", "monthly", "hourly"),
      dayOfWeek: fc.constantFrom("monday", null),
      dayOfMonth: fc.constantFrom(1, null),
      time: hhmm,
      timezone,
    },
    { requiredKeys: [] },
  ),
);

/** The inputs each resource takes (the public surface of `@cloudcost/pulumi`). */
const inputsFor: Record<ResourceKind, fc.Arbitrary<Json>> = {
  CloudGroup: inputs(
    {
      name: field(name),
      description: field(fc.string({ maxLength: 520 })),
      awsAccountIds: field(fc.uniqueArray(fc.stringMatching(/^\d{11,13}$/), { maxLength: 3 })),
      azureSubscriptionIds: field(fc.uniqueArray(fc.uuid(), { maxLength: 2 })),
      adoptId: field(fc.stringMatching(/^grp_[0-9a-z]{8,42}$/)),
    },
    ["name"],
  ),
  BudgetAlert: inputs(
    {
      name: field(name),
      amount: field(
        fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 1e9 }).map((n) => n / 100), weight: 4 },
          fc.double({ min: -10, max: 1e13, noNaN: true }),
        ),
      ),
      currency: field(fc.constantFrom("USD", "EUR", "JPY", "usd", "XXX", "ABCD")),
      period: field(fc.constantFrom("monthly", "quarterly", "annual", "weekly")),
      thresholds: field(
        fc.uniqueArray(fc.record({ percent: fc.integer({ min: 0, max: 1001 }), basis: fc.constantFrom("actual", "forecast") }), {
          maxLength: 11,
          selector: (t) => `${t.basis}:${t.percent}`,
        }),
      ),
      recipients: field(emails),
      webhookUrl: field(fc.oneof(fc.stringMatching(/^https:\/\/hooks\.example\.com\/[a-z0-9]{1,20}$/), fc.webUrl())),
      enabled: field(fc.boolean()),
      groupId: field(fc.stringMatching(/^grp_[0-9a-z]{8,42}$/)),
    },
    ["name", "amount"],
  ),
  ScheduledReport: inputs(
    {
      name: field(name),
      report: field(fc.constantFrom("summary", "services", "daily", "forecast", "comparison", "x")),
      schedule: field(schedule),
      format: field(fc.constantFrom("csv", "pdf", "xls")),
      recipients: field(emails),
      enabled: field(fc.boolean()),
      groupId: field(fc.stringMatching(/^grp_[0-9a-z]{8,42}$/)),
    },
    ["name", "report", "schedule", "recipients"],
  ),
};

/** Now and then a key no resource takes. */
const extraKeys = fc.oneof(
  { arbitrary: fc.constant({}), weight: 4 },
  {
    arbitrary: fc.dictionary(
      fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !k.startsWith("__")),
      fc.jsonValue({ maxDepth: 1 }),
      { minKeys: 1, maxKeys: 2 },
    ),
    weight: 1,
  },
);

/** Inputs Check accepted, with nothing unknown in them, must be what the API accepts (the contract's schemas). */
function acceptedByContract(kind: ResourceKind, inputs: Json): boolean {
  const { __provider: _p, adoptId: _a, ...fields } = inputs;
  if (JSON.stringify(fields).includes(UNKNOWN)) return true;
  if (kind === "BudgetAlert") return AlertInput.safeParse(fields).success;
  if (kind === "ScheduledReport") return ReportInput.safeParse(fields).success;
  const { awsAccountIds, azureSubscriptionIds, ...group } = fields as { awsAccountIds?: unknown[]; azureSubscriptionIds?: unknown[] };
  return (
    CreateGroup.safeParse(group).success &&
    (awsAccountIds ?? []).every((id) => AwsAccountId.safeParse(id).success) &&
    (azureSubscriptionIds ?? []).every((id) => AzureSubscriptionId.safeParse(id).success)
  );
}

/** Check over gRPC to the real dynamic-provider host, fed anything: an answer every time, never a crash or a hang. */
describe("fuzzing the provider's Check over the wire", () => {
  let host: ProviderHost;
  let providers: Record<ResourceKind, string>;

  beforeAll(async () => {
    host = await startProviderHost();
    await host.configure({
      "cloudcost:apiUrl": "http://127.0.0.1:9/api/v1",
      "cloudcost:apiToken": "unused: no service listens there, so Check's dry-run (issue 38) is skipped",
    });
    providers = await providerTexts();
  });
  afterAll(() => host?.stop());

  test.each(Object.keys(inputsFor) as ResourceKind[])("%s: field-level failures or inputs the API accepts", async (kind) => {
    await fc.assert(
      fc.asyncProperty(inputsFor[kind], extraKeys, async (inputs, extra) => {
        const news = { ...extra, ...inputs, __provider: providers[kind] };
        const result = await host.check(urn(kind, "fuzz"), {}, news);
        for (const f of result.failures) {
          expect(f.property).toEqual(expect.any(String));
          expect(f.reason.length).toBeGreaterThan(0);
          expect(f.reason).not.toMatch(/\bat [\w.<>]+ \(|node:internal/);
        }
        if (result.failures.length === 0) expect(acceptedByContract(kind, result.inputs)).toBe(true);
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect(host.process.exitCode).toBeNull();
  });
});
