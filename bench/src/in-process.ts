import * as diagnostics from "node:diagnostics_channel";
import { Pool } from "undici";
import { handlers } from "@cloudcost/pulumi/runtime";
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind, RunningSandbox } from "@cloudcost/testkit";
import {
  floorSender,
  inParallel,
  PARALLELISM,
  PHASES,
  PLURAL,
  requestBody,
  timed,
  workload,
  type Item,
  type Json,
  type Phase,
} from "./workload";

/*
 * Issue 16 item 3: our provider runtime in this process (without Pulumi's host) against a bare undici
 * floor sending the same requests, on one sandbox, at the same parallelism (16).
 *
 * Fairness on a shared 2-core machine, where the sandbox's share of the CPU moves from one second to the
 * next: both sides run in ROUNDS rounds of N / ROUNDS resources, and within a round each PHASE runs ours
 * and the floor back to back, in alternating order (ours first in one, the floor first in the next), so
 * the two measurements of a pair meet the same load; the figure is the median of the per-pair ratios.
 * Reads, which change nothing, are measured READ_REPEATS times per round, each after a pause that makes
 * it a new burst for our runtime (and the same pause for the floor).
 * An unmeasured warm-up of both comes first (JIT, SQLite pages, connections, the organization lookup our
 * runtime makes once per client). Every request both sides send is counted through undici's diagnostics
 * channel (`sent`): the same requests, with bodies of the same size.
 */

const ROUNDS = 8;
/** Reads change nothing, so each round measures them twice (more pairs for the noisiest phase). */
const READ_REPEATS = 2;
const BURST_GAP_MS = 600;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Created {
  kind: ResourceKind;
  id: string;
  outs: Json;
}

/** One side of the comparison: the three phases over the same items. */
interface Side {
  create(items: Item[]): Promise<Created[]>;
  read(created: Created[]): Promise<void>;
  delete(created: Created[]): Promise<void>;
}

/** Our runtime: the handlers the host would call (`check` then `create`, `read`, `delete`). Reads that arrive together are answered from paged listings, as under the host. */
async function ours(baseUrl: string, token: string): Promise<Side> {
  const config = new Map([
    ["cloudcost:apiUrl", baseUrl],
    ["cloudcost:apiToken", token],
  ]);
  await handlers.CloudGroup.configure({ config: { get: (k: string) => config.get(k) } } as unknown as pulumi.dynamic.ConfigureRequest);
  return {
    create: (items) =>
      inParallel(items, async (item) => {
        const h = handlers[item.kind];
        const checked = await h.check({}, item.inputs);
        const created = await h.create(checked.inputs!);
        return { kind: item.kind, id: created.id, outs: created.outs as Json };
      }),
    read: async (created) => {
      await inParallel(created, async (c) => {
        if ((await handlers[c.kind].read(c.id, c.outs)).id !== c.id) throw new Error(`Read ${c.kind} ${c.id} did not find it`);
      });
    },
    delete: async (created) => {
      await inParallel(created, (c) => handlers[c.kind].delete(c.id, c.outs));
    },
  };
}

/** The floor: the same requests sent directly over one undici pool (kept for the whole comparison, as our runtime keeps one per origin). */
function floor(baseUrl: string, token: string, pool: Pool): Side {
  const send = floorSender(baseUrl, token, pool);
  return {
    create: (items) =>
      inParallel(
        // Built outside the requests, as the provider's Check builds them before its Create.
        items.map((item) => ({ item, body: requestBody(item) })),
        async ({ item, body }) => {
          const created = await send("POST", `/${PLURAL[item.kind]}`, body);
          const members = item.inputs.awsAccountIds as string[] | undefined;
          if (members)
            await send("PUT", `/groups/${String(created.id)}/members`, {
              members: members.map((accountId) => ({ provider: "aws", accountId })),
            });
          return { kind: item.kind, id: String(created.id), outs: {} };
        },
      ),
    // What our runtime sends for Reads that arrive together: a paged listing (200 per page) of each kind.
    read: async () => {
      await Promise.all(
        Object.values(PLURAL).map(async (plural) => {
          let cursor: string | null = null;
          do {
            const page = (await send("GET", `/${plural}?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)) as {
              nextCursor: string | null;
            };
            cursor = page.nextCursor;
          } while (cursor);
        }),
      );
    },
    delete: async (created) => {
      await inParallel(created, (c) => send("DELETE", `/${PLURAL[c.kind]}/${c.id}`));
    },
  };
}

/** Requests by method and request body bytes one side sent in one phase, as undici saw them in this process. */
interface Sent {
  requests: Record<string, number>;
  bodyBytes: number;
}

/** Counts every request undici creates in this process under the side and phase currently running. */
function requestRecorder() {
  const sent: Record<string, Partial<Record<Phase, Sent>>> = {};
  let label: string | undefined;
  let phase: Phase = "create";
  const onCreate = (message: unknown): void => {
    if (label === undefined) return;
    const { request } = message as { request: { method: string; body?: unknown } };
    const s = ((sent[label] ??= {})[phase] ??= { requests: {}, bodyBytes: 0 });
    s.requests[request.method] = (s.requests[request.method] ?? 0) + 1;
    if (typeof request.body === "string" || Buffer.isBuffer(request.body)) s.bodyBytes += Buffer.byteLength(request.body);
  };
  diagnostics.subscribe("undici:request:create", onCreate);
  return {
    sent,
    async during<T>(side: string, p: Phase, work: () => Promise<T>): Promise<T> {
      [label, phase] = [side, p];
      try {
        return await work();
      } finally {
        label = undefined;
      }
    },
    close: () => diagnostics.unsubscribe("undici:request:create", onCreate),
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round2 = (x: number): number => Math.round(x * 100) / 100;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** In-process ops/s, the floor's, and the ratio (median of the alternated per-phase pairs), with what each side sent. */
export async function inProcessVersusFloor(sandbox: RunningSandbox, token: string, n: number) {
  const per = Math.max(3, Math.ceil(n / ROUNDS));
  const pool = new Pool(new URL(sandbox.baseUrl).origin, { connections: PARALLELISM, pipelining: 1 });
  const sides = { ours: await ours(sandbox.baseUrl, token), floor: floor(sandbox.baseUrl, token, pool) };
  const recorder = requestRecorder();
  const ratios: Record<Phase, number[]> = { create: [], read: [], delete: [] };
  const seconds = { ours: { create: 0, read: 0, delete: 0 }, floor: { create: 0, read: 0, delete: 0 } };
  // CPU of this process per operation on each side: what our runtime itself adds, hardly moved by other load.
  const cpuMs = { ours: { create: 0, read: 0, delete: 0 }, floor: { create: 0, read: 0, delete: 0 } };
  try {
    for (const side of [sides.ours, sides.floor]) {
      const warm = await side.create(workload(per, "inproc-w"));
      await side.read(warm);
      await side.delete(warm);
    }
    for (let r = 0; r < ROUNDS; r++) {
      // Names of the same length on both sides, so the bodies are the same size.
      const created = { ours: [] as Created[], floor: [] as Created[] };
      for (const [i, phase] of PHASES.entries())
        for (let repeat = 0; repeat < (phase === "read" ? READ_REPEATS : 1); repeat++) {
          const order = (r + i + repeat) % 2 === 0 ? (["ours", "floor"] as const) : (["floor", "ours"] as const);
          const took = { ours: 0, floor: 0 };
          for (const name of order) {
            const side = sides[name];
            // The pause is kept so the rounds stay comparable with earlier figures; our runtime's listing no longer
            // depends on it (refresh-listing.ts): it answers every later Read of the process.
            if (phase === "read") await sleep(BURST_GAP_MS);
            const cpu0 = process.cpuUsage();
            const t = await recorder.during(name, phase, () =>
              timed(async () => {
                if (phase === "create") created[name] = await side.create(workload(per, `inproc-${name[0]}-${r}`));
                else await side[phase](created[name]);
              }),
            );
            const cpu = process.cpuUsage(cpu0);
            cpuMs[name][phase] += (cpu.user + cpu.system) / 1000;
            took[name] = t.seconds;
            seconds[name][phase] += t.seconds;
          }
          ratios[phase].push(took.floor / took.ours);
        }
    }
  } finally {
    recorder.close();
    await pool.close();
  }
  const total = per * ROUNDS;
  const reads = total * READ_REPEATS;
  const perPhase = <T>(f: (p: Phase) => T) => Object.fromEntries(PHASES.map((p) => [p, f(p)]));
  return {
    resources: total,
    rounds: ROUNDS,
    opsPerSecond: perPhase((p) => Math.round((p === "read" ? reads : total) / seconds.ours[p])),
    floorOpsPerSecond: perPhase((p) => Math.round((p === "read" ? reads : total) / seconds.floor[p])),
    ratioToFloor: perPhase((p) => round2(median(ratios[p]))),
    roundRatios: perPhase((p) => ratios[p].map(round2)),
    cpuMsPerOperation: {
      ours: perPhase((p) => round3(cpuMs.ours[p] / (p === "read" ? reads : total))),
      floor: perPhase((p) => round3(cpuMs.floor[p] / (p === "read" ? reads : total))),
    },
    sent: recorder.sent,
  };
}
