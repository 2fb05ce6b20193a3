import { providerTexts, ProviderHost, ResourceKind, urn } from "@cloudcost/testkit";

type Json = Record<string, unknown>;

/** One resource as a program declares it: its kind, its logical name and its inputs. */
export interface Desired {
  kind: ResourceKind;
  name: string;
  inputs: Json;
}

/** What the engine keeps in state after a create: the id and the outputs. */
export interface Created extends Desired {
  id: string;
  outputs: Json;
}

const AWS = ["111122223333", "444455556666", "777788889999"];
const AZURE = ["0b1f6471-1bf0-4dda-aec3-cb9272f09590", "6f1a3c2e-8d4b-4b7a-9c51-2e0d7f3a9b14"];

/**
 * `count` resources as a stack would declare them: about 40% Cloud Groups (every other one with members
 * of the demo organization's accounts), 30% budget alerts and 30% scheduled reports, every third of
 * those scoped to one of the groups (the engine creates a dependency first, see `createAll`).
 */
export function desiredStack(count: number, prefix: string): { groups: Desired[]; dependents: (groupIds: string[]) => Desired[] } {
  const groupCount = Math.max(1, Math.round(count * 0.4));
  const groups: Desired[] = Array.from({ length: groupCount }, (_, i) => ({
    kind: "CloudGroup",
    name: `${prefix}-group-${i}`,
    inputs: {
      name: `${prefix} group ${i}`,
      description: `group ${i} of the ${prefix} run`,
      ...(i % 2 === 0 ? { awsAccountIds: [AWS[i % AWS.length]!], azureSubscriptionIds: [AZURE[i % AZURE.length]!.toUpperCase()] } : {}),
    },
  }));
  const dependents = (groupIds: string[]): Desired[] =>
    Array.from({ length: count - groupCount }, (_, i) => {
      const groupId = i % 3 === 0 ? { groupId: groupIds[i % groupIds.length]! } : {};
      return i % 2 === 0
        ? {
            kind: "BudgetAlert",
            name: `${prefix}-alert-${i}`,
            inputs: {
              name: `${prefix} alert ${i}`,
              amount: 100 + i,
              thresholds: [{ percent: 50 + (i % 50), basis: "forecast" }],
              recipients: [`team${i}@example.com`],
              ...groupId,
            },
          }
        : {
            kind: "ScheduledReport",
            name: `${prefix}-report-${i}`,
            inputs: {
              name: `${prefix} report ${i}`,
              report: "services",
              schedule: { frequency: "monthly", dayOfMonth: 1 + (i % 28), time: "06:30", timezone: "UTC" },
              recipients: [`team${i}@example.com`],
              ...groupId,
            },
          };
    });
  return { groups, dependents };
}

/** Runs `work` over `items` with at most `parallelism` in flight (what `pulumi up --parallel N` does). */
export async function mapLimit<T, R>(items: readonly T[], parallelism: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallelism, items.length) }, lane));
  return results;
}

/** What an operation did, for tests that count failures instead of stopping at the first. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

async function outcome<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/** The provider half of a `pulumi up` of one resource: Check, then Create with the checked inputs. */
export async function checkAndCreate(host: ProviderHost, d: Desired, providers: Record<ResourceKind, string>): Promise<Created> {
  const checked = await host.check(urn(d.kind, d.name), {}, { ...d.inputs, __provider: providers[d.kind] });
  if (checked.failures.length) throw new Error(`check failed for ${d.name}: ${JSON.stringify(checked.failures)}`);
  const { id, properties } = await host.create(urn(d.kind, d.name), checked.inputs);
  return { ...d, id, outputs: properties };
}

/** Creates the groups, then everything that depends on them, at `parallelism`; every outcome is kept. */
export async function createAll(
  host: ProviderHost,
  stack: ReturnType<typeof desiredStack>,
  parallelism: number,
): Promise<Outcome<Created>[]> {
  const providers = await providerTexts();
  const groups = await mapLimit(stack.groups, parallelism, (d) => outcome(() => checkAndCreate(host, d, providers)));
  const groupIds = groups.flatMap((g) => (g.ok ? [g.value.id] : []));
  const dependents = await mapLimit(stack.dependents(groupIds), parallelism, (d) => outcome(() => checkAndCreate(host, d, providers)));
  return [...groups, ...dependents];
}

/**
 * A second `pulumi up` after editing the program: every third resource changes (groups their
 * description, and every sixth their members too; alerts their amount; reports their format).
 */
export function edited(c: Created, index: number): Json | undefined {
  if (index % 3 !== 0) return undefined;
  if (c.kind === "CloudGroup")
    return { ...c.inputs, description: "edited", ...(c.inputs.awsAccountIds ? { awsAccountIds: [AWS[(index + 1) % AWS.length]!] } : {}) };
  if (c.kind === "BudgetAlert") return { ...c.inputs, amount: Number(c.inputs.amount) + 1000 };
  return { ...c.inputs, format: "pdf" };
}

/** The provider half of updating one resource: Check (olds = its inputs), then Update (olds = its outputs). */
export async function checkAndUpdate(
  host: ProviderHost,
  c: Created,
  news: Json,
  providers: Record<ResourceKind, string>,
): Promise<Created> {
  const u = urn(c.kind, c.name);
  const checked = await host.check(u, { ...c.inputs, __provider: providers[c.kind] }, { ...news, __provider: providers[c.kind] });
  if (checked.failures.length) throw new Error(`check failed for ${c.name}: ${JSON.stringify(checked.failures)}`);
  const outputs = await host.update(u, c.id, c.outputs, checked.inputs);
  return { ...c, inputs: news, outputs };
}

/** Applies `edited` to every resource at `parallelism`; unchanged resources come back as they were. */
export async function updateAll(host: ProviderHost, created: readonly Created[], parallelism: number): Promise<Outcome<Created>[]> {
  const providers = await providerTexts();
  return mapLimit(
    created.map((c, i) => [c, edited(c, i)] as const),
    parallelism,
    ([c, news]) => outcome(async () => (news ? checkAndUpdate(host, c, news, providers) : c)),
  );
}

/** `pulumi refresh`: Read every resource from its stored id and outputs. */
export function readAll(
  host: ProviderHost,
  created: readonly Created[],
  parallelism: number,
): Promise<Outcome<{ id: string; properties: Json }>[]> {
  return mapLimit(created, parallelism, (c) => outcome(() => host.read(urn(c.kind, c.name), c.id, c.outputs, c.inputs)));
}

/** `pulumi destroy`: dependents first, then the groups they use. */
export async function deleteAll(host: ProviderHost, created: readonly Created[], parallelism: number): Promise<Outcome<void>[]> {
  const del = (c: Created) => outcome(() => host.delete(urn(c.kind, c.name), c.id, c.outputs));
  const dependents = await mapLimit(
    created.filter((c) => c.kind !== "CloudGroup"),
    parallelism,
    del,
  );
  const groups = await mapLimit(
    created.filter((c) => c.kind === "CloudGroup"),
    parallelism,
    del,
  );
  return [...dependents, ...groups];
}

export const failures = <T>(outcomes: readonly Outcome<T>[]): string[] => outcomes.flatMap((o) => (o.ok ? [] : [o.error]));
export const values = <T>(outcomes: readonly Outcome<T>[]): T[] => outcomes.flatMap((o) => (o.ok ? [o.value] : []));
