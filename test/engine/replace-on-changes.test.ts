/**
 * Issue 33 item 2, judged by the real Pulumi CLI on the dynamic resources: `replaceOnChanges` replaces, and what
 * changed is named (`diffReasons`, `detailedDiff`) in `preview --json`, for a change in the program and for one
 * made behind Pulumi's back. The SDK's dynamic-provider host passes no changed keys; on `changes: true` the engine
 * planned an update for a `replaceOnChanges` field and named nothing. The handlers answer a change "unknown", and
 * the engine diffs the inputs itself (provider/src/runtime/handlers.ts).
 */
import type { PulumiStack } from "@cloudcost/testkit";
import {
  DECLARED_PROGRAM,
  DECLARED_RESOURCES,
  changeAlertAmount,
  changes,
  expectSuccess,
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

async function live(kind: Kind, id: string): Promise<Record<string, unknown> | undefined> {
  const read = kind === "CloudGroup" ? f.api.getGroup(id) : kind === "BudgetAlert" ? f.api.getAlert(id) : f.api.getReport(id);
  return (await read.catch((e: { status?: number }) => (e.status === 404 ? undefined : Promise.reject(e)))) as
    Record<string, unknown> | undefined;
}

async function subjectId(stack: PulumiStack): Promise<string> {
  const [subject] = (await stack.exportState()).deployment.resources!.filter((r) => nameOf(r.urn) === "subject");
  return subject!.id!;
}

describe.each(Object.keys(SUBJECTS) as Kind[])("%s", (kind) => {
  const { inputs, field, values } = SUBJECTS[kind];
  // Each test names its object after its stack: group names are unique, and one test's leftovers must not fail another.
  const declare = (stack: PulumiStack, value: unknown, options: Declared["options"] & { replaceOnChanges?: string[] }) =>
    stack.setConfigObject(DECLARED_RESOURCES, [
      { kind, name: "subject", inputs: { ...inputs, name: `${String(inputs.name)} ${stack.name}`, [field]: value }, options },
    ]);

  it(`replaceOnChanges: ["${field}"]: a changed ${field} is planned as a replacement naming it, and up replaces the object`, async () => {
    const stack = await f.stack(DECLARED_PROGRAM, `roc-${kind}`);
    await declare(stack, values[0], { replaceOnChanges: [field] });
    expectSuccess(await stack.up());
    const before = await subjectId(stack);

    await declare(stack, values[1], { replaceOnChanges: [field] });
    const { code, digest } = await stack.previewJson();
    expect(code).toBe(0);
    const steps = changes(digest).filter((s) => nameOf(s.urn) === "subject");
    expect(steps.map((s) => s.op)).not.toContain("update");
    const replace = steps.find((s) => s.op === "replace");
    expect(replace?.replaceReasons).toEqual([field]);
    expect(replace?.diffReasons).toEqual([field]);

    expectSuccess(await stack.up());
    const after = await subjectId(stack);
    expect(after).not.toBe(before);
    expect(await live(kind, before)).toBeUndefined();
    expect((await live(kind, after))?.[field]).toEqual(values[1]);
    expectSuccess(await stack.destroy());
  });

  it(`without replaceOnChanges a changed ${field} is an update in place that names it (diffReasons, detailedDiff)`, async () => {
    const stack = await f.stack(DECLARED_PROGRAM, `upd-${kind}`);
    await declare(stack, values[0], {});
    expectSuccess(await stack.up());
    const before = await subjectId(stack);

    await declare(stack, values[1], {});
    const { code, digest } = await stack.previewJson();
    expect(code).toBe(0);
    const steps = changes(digest).filter((s) => nameOf(s.urn) === "subject");
    expect(steps.map((s) => [s.op, s.diffReasons, s.detailedDiff])).toEqual([
      ["update", [field], { [field]: { kind: "update", inputDiff: true } }],
    ]);
    expectSuccess(await stack.up());
    expect(await subjectId(stack)).toBe(before);
    expect((await live(kind, before))?.[field]).toEqual(values[1]);
    expectSuccess(await stack.destroy());
  });
});

test("a change made behind Pulumi's back shows in preview --refresh --json as an update naming the field", async () => {
  const stack = await f.stack(DECLARED_PROGRAM, "drift");
  await stack.setConfigObject(DECLARED_RESOURCES, [
    { kind: "BudgetAlert", name: "subject", inputs: { name: "Drifted alert", amount: 100 } },
  ]);
  expectSuccess(await stack.up());
  const drift = await changeAlertAmount(f.api, stack, TYPES.alert);
  const { code, digest } = await stack.previewJson(["--refresh"]);
  expect(code).toBe(0);
  const planned = changes(digest);
  expect(planned.map((s) => [s.op, nameOf(s.urn), s.diffReasons, s.detailedDiff])).toEqual([
    ["update", drift.name, ["amount"], { amount: { kind: "update", inputDiff: true } }],
  ]);
  expectSuccess(await stack.destroy());
});
