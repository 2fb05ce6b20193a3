/**
 * README "How the provider behaves …": `ignoreChanges` on every input of every kind, judged by the real Pulumi
 * CLI. For each input a subject: `up` with one value, then the program changes it under `ignoreChanges` — `up`
 * must not write the object (its `updatedAt` stays) and `preview --refresh` must plan nothing for it.
 */
import type { PulumiStack } from "@cloudcost/testkit";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, changes, idsByName, nameOf, useEngineFixture, type Declared, type Kind } from "./support";

const f = useEngineFixture();

/** The service's `updatedAt` of an object: unchanged means nobody wrote it. */
async function updatedAt(kind: Kind, id: string): Promise<string> {
  if (kind === "CloudGroup") return (await f.api.getGroup(id)).updatedAt;
  if (kind === "BudgetAlert") return (await f.api.getAlert(id)).updatedAt;
  return (await f.api.getReport(id)).updatedAt;
}

/** Two values a user might write for each input (the second differs from the first), and the required rest. */
const FIELDS: Record<Kind, { base: Record<string, unknown>; values: Record<string, [unknown, unknown]> }> = {
  CloudGroup: {
    base: { name: "Ignored group" },
    values: {
      name: ["Ignored group", "Renamed group"],
      description: ["Platform teams", "Data teams"],
      awsAccountIds: [["111122223333"], ["444455556666"]],
      azureSubscriptionIds: [["0b1f6471-1bf0-4dda-aec3-cb9272f09590"], []],
      adoptId: [undefined, "grp_doesnotexist000000000"],
    },
  },
  BudgetAlert: {
    base: { name: "Ignored alert", amount: 100 },
    values: {
      name: ["Ignored alert", "Renamed alert"],
      amount: [100, 250.5],
      currency: ["USD", "EUR"],
      period: ["monthly", "quarterly"],
      groupId: ["scope-a", "scope-b"],
      thresholds: [[{ percent: 100, basis: "actual" }], [{ percent: 50, basis: "forecast" }]],
      recipients: [["a@example.com"], ["b@example.com", "c@example.com"]],
      webhookUrl: ["https://hooks.example.com/a", "https://hooks.example.com/b"],
      enabled: [true, false],
      filters: [{ services: ["Amazon EC2"] }, { tags: [{ key: "team", values: ["web"] }] }],
      plannedAmounts: [[], [{ periodStart: "2027-01-01", amount: 500 }]],
      autoAdjust: [null, { lookbackPeriods: 2 }],
      startDate: ["2026-01-01", "2026-02-15"],
      endDate: ["2030-01-01", "2031-06-30"],
      adoptId: [undefined, "alr_doesnotexist000000000"],
    },
  },
  ScheduledReport: {
    base: {
      name: "Ignored report",
      report: "summary",
      schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
      recipients: ["a@example.com"],
    },
    values: {
      name: ["Ignored report", "Renamed report"],
      report: ["summary", "services"],
      groupId: ["scope-a", "scope-b"],
      schedule: [
        { frequency: "daily", time: "09:00", timezone: "UTC" },
        { frequency: "weekly", dayOfWeek: "friday", time: "17:00", timezone: "Europe/Berlin" },
      ],
      format: ["csv", "pdf"],
      recipients: [["a@example.com"], ["b@example.com"]],
      enabled: [true, false],
      filters: [{ providers: ["aws"] }, { regions: ["westeurope"] }],
      webhookUrl: ["https://hooks.example.com/a", "https://hooks.example.com/b"],
      adoptId: [undefined, "rpt_doesnotexist000000000"],
    },
  },
};

/**
 * The stack's resources: two groups the subjects may name (`scope-a`/`scope-b`), and one subject per input of every
 * kind with that input set to the value VALUES gives it, each ignoring its own input when IGNORE is set. Every subject
 * in one stack: each is its own object (the scope groups are only named, never changed), so what one `up` does to each
 * is what it would do alone — three CLI runs for all 30 inputs (issue 39; before, three for each kind).
 */
function declaration(pick: 0 | 1, ignore: boolean): Declared[] {
  const scopes: Declared[] = [
    { kind: "CloudGroup", name: "scope-a", inputs: { name: "Scope A" } },
    { kind: "CloudGroup", name: "scope-b", inputs: { name: "Scope B" } },
  ];
  const subjects = KINDS.flatMap((kind) =>
    Object.entries(FIELDS[kind].values).map(([field, values]): Declared => {
      const value = values[pick];
      // Group names are unique in an organization (spec: 409), so each subject's name says its input.
      const inputs: Record<string, unknown> = { ...FIELDS[kind].base, name: `${FIELDS[kind].base.name as string} (${field})` };
      let groupOf: string | undefined;
      if (field === "groupId") groupOf = value as string;
      else if (value !== undefined) inputs[field] = value;
      return { kind, name: subjectName(kind, field), inputs, groupOf, options: { ignoreChanges: ignore ? [field] : [] } };
    }),
  );
  return [...scopes, ...subjects];
}

const KINDS = Object.keys(FIELDS) as Kind[];
const subjectName = (kind: Kind, field: string): string => `subject-${kind}-${field}`;

/** Per subject: its kind, its ID, its `updatedAt` after the first `up`, and after the second (inputs changed, ignored). */
const seen = new Map<string, { kind: Kind; id: string; written: string; after: string }>();
let secondUp: number;
let preview: Awaited<ReturnType<PulumiStack["previewJson"]>>;
beforeAll(async () => {
  const stack = await f.stack(DECLARED_PROGRAM, "ignore", [{ key: DECLARED_RESOURCES, value: JSON.stringify(declaration(0, false)) }]);
  expect((await stack.up()).code).toBe(0);
  const ids = await idsByName(stack);
  for (const kind of KINDS)
    for (const field of Object.keys(FIELDS[kind].values)) {
      const id = ids.get(subjectName(kind, field));
      if (id) seen.set(subjectName(kind, field), { kind, id, written: await updatedAt(kind, id), after: "" });
    }
  await stack.setConfigObject(DECLARED_RESOURCES, declaration(1, true));
  secondUp = (await stack.up()).code;
  for (const entry of seen.values()) entry.after = await updatedAt(entry.kind, entry.id);
  preview = await stack.previewJson(["--refresh"]);
});

describe.each(KINDS)("ignoreChanges on every input of %s", (kind) => {
  it.each(Object.keys(FIELDS[kind].values))(
    "%s: a changed value under ignoreChanges leaves the object alone, through up and preview --refresh",
    (field) => {
      const subject = seen.get(subjectName(kind, field));
      expect(subject).toBeDefined();
      expect(secondUp).toBe(0);
      expect(subject!.after).toBe(subject!.written);
      expect(preview.code).toBe(0);
      expect(changes(preview.digest).filter((s) => nameOf(s.urn) === subjectName(kind, field))).toEqual([]);
    },
  );
});
