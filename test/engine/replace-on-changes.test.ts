/**
 * Issue 33 item 2, judged by the real Pulumi CLI on the dynamic resources: `replaceOnChanges` replaces, and what
 * changed is named (`diffReasons`, `detailedDiff`) in `preview --json`, for a change in the program and for one
 * made behind Pulumi's back. The SDK's dynamic-provider host passes no changed keys; on `changes: true` the engine
 * planned an update for a `replaceOnChanges` field and named nothing. The handlers answer a change "unknown", and
 * the engine diffs the inputs itself (provider/src/runtime/handlers.ts).
 *
 * Every subject is independent of the others (no subject references another), so one stack holds them all and each
 * test judges its own from the shared runs: the engine plans and applies each resource on its own, and one stack per
 * subject cost seven times the CLI runs for the same verdicts (issue 39).
 */
import type { PreviewDigest } from "@cloudcost/testkit";
import {
  DECLARED_PROGRAM,
  DECLARED_RESOURCES,
  changeAlertAmount,
  changes,
  expectSuccess,
  idsByName,
  nameOf,
  TYPES,
  useEngineFixture,
  type Declared,
  type Kind,
} from "./support";

const f = useEngineFixture();

/** Per kind: the required inputs, and one field with a first and a second value. */
const SUBJECTS: Record<Kind, { inputs: Record<string, unknown>; field: string; values: [unknown, unknown] }> = {
  CloudGroup: { inputs: { name: "Replaced group" }, field: "description", values: ["first", "second"] },
  BudgetAlert: { inputs: { name: "Replaced alert" }, field: "amount", values: [100, 250.5] },
  ScheduledReport: {
    inputs: {
      name: "Replaced report",
      report: "summary",
      schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
      recipients: ["a@example.com"],
    },
    field: "format",
    values: ["csv", "pdf"],
  },
};
const KINDS = Object.keys(SUBJECTS) as Kind[];
/** With `replaceOnChanges: [field]`, and without. */
const ROLES = ["roc", "upd"] as const;
type Role = (typeof ROLES)[number];
const subjectName = (role: Role, kind: Kind): string => `${role}-${kind}`;
const DRIFT = "drift";

/** The stack's resources: a subject per kind and role (named after both: group names are unique), and an alert to drift. */
function declaration(version: 0 | 1): Declared[] {
  const subjects = KINDS.flatMap((kind) =>
    ROLES.map((role): Declared => {
      const { inputs, field, values } = SUBJECTS[kind];
      return {
        kind,
        name: subjectName(role, kind),
        inputs: { ...inputs, name: `${String(inputs.name)} ${role}`, [field]: values[version] },
        options: role === "roc" ? { replaceOnChanges: [field] } : {},
      };
    }),
  );
  return [...subjects, { kind: "BudgetAlert", name: DRIFT, inputs: { name: "Drifted alert", amount: 100 } }];
}

async function live(kind: Kind, id: string): Promise<Record<string, unknown> | undefined> {
  const read = kind === "CloudGroup" ? f.api.getGroup(id) : kind === "BudgetAlert" ? f.api.getAlert(id) : f.api.getReport(id);
  return (await read.catch((e: { status?: number }) => (e.status === 404 ? undefined : Promise.reject(e)))) as
    Record<string, unknown> | undefined;
}

/** What the shared runs saw: each resource's id after the first `up` and after the second, and the two previews. */
const seen = {} as {
  before: Map<string, string>;
  after: Map<string, string>;
  changed: { code: number; digest: PreviewDigest };
  drifted: { code: number; digest: PreviewDigest };
  drift: Awaited<ReturnType<typeof changeAlertAmount>>;
};

beforeAll(async () => {
  const stack = await f.stack(DECLARED_PROGRAM, "subjects", [{ key: DECLARED_RESOURCES, value: JSON.stringify(declaration(0)) }]);
  expectSuccess(await stack.up());
  seen.before = await idsByName(stack);

  await stack.setConfigObject(DECLARED_RESOURCES, declaration(1));
  seen.changed = await stack.previewJson();
  expectSuccess(await stack.up());
  seen.after = await idsByName(stack);

  // Behind Pulumi's back, once the program's changes are applied: the next refresh has this one change to find.
  seen.drift = await changeAlertAmount(f.api, stack, TYPES.alert, DRIFT);
  seen.drifted = await stack.previewJson(["--refresh"]);
});

/** The steps the first preview planned for one subject. */
const stepsOf = (role: Role, kind: Kind) => changes(seen.changed.digest).filter((s) => nameOf(s.urn) === subjectName(role, kind));

describe.each(KINDS)("%s", (kind) => {
  const { field, values } = SUBJECTS[kind];

  it(`replaceOnChanges: ["${field}"]: a changed ${field} is planned as a replacement naming it, and up replaces the object`, async () => {
    expect(seen.changed.code).toBe(0);
    const steps = stepsOf("roc", kind);
    expect(steps.map((s) => s.op)).not.toContain("update");
    const replace = steps.find((s) => s.op === "replace");
    expect(replace?.replaceReasons).toEqual([field]);
    expect(replace?.diffReasons).toEqual([field]);

    const [before, after] = [seen.before.get(subjectName("roc", kind))!, seen.after.get(subjectName("roc", kind))!];
    expect(after).not.toBe(before);
    expect(await live(kind, before)).toBeUndefined();
    expect((await live(kind, after))?.[field]).toEqual(values[1]);
  });

  it(`without replaceOnChanges a changed ${field} is an update in place that names it (diffReasons, detailedDiff)`, async () => {
    expect(seen.changed.code).toBe(0);
    expect(stepsOf("upd", kind).map((s) => [s.op, s.diffReasons, s.detailedDiff])).toEqual([
      ["update", [field], { [field]: { kind: "update", inputDiff: true } }],
    ]);
    const before = seen.before.get(subjectName("upd", kind))!;
    expect(seen.after.get(subjectName("upd", kind))).toBe(before);
    expect((await live(kind, before))?.[field]).toEqual(values[1]);
  });
});

test("a change made behind Pulumi's back shows in preview --refresh --json as an update naming the field", () => {
  expect(seen.drifted.code).toBe(0);
  // Only the drifted alert: every subject's change was applied by the `up` before it.
  expect(changes(seen.drifted.digest).map((s) => [s.op, nameOf(s.urn), s.diffReasons, s.detailedDiff])).toEqual([
    ["update", seen.drift.name, ["amount"], { amount: { kind: "update", inputDiff: true } }],
  ]);
});
