import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BudgetAlert, CloudGroup } from "@cloudcost/api";
import { startSandbox, RunningSandbox } from "@cloudcost/testkit";
import { listAll, send, WireRequest } from "./support/http";
import { UNLIMITED } from "./support/orgs";
import { alertInput, OrgApi } from "./support/route-requests";
import { CRASH_ACKNOWLEDGED } from "./support/soak";

/** Concurrent writers: enough to have many writes in flight when the process dies. */
const WORKERS = 16;

interface Write {
  req: WireRequest & { headers: { "idempotency-key": string } };
  kind: "groups" | "alerts";
  name: string;
  /** The id from a 2xx answer: the write was acknowledged. */
  id?: string;
}

function nextWrite(org: OrgApi, n: number): Write {
  const key = randomUUID();
  const kind = n % 2 === 0 ? "groups" : "alerts";
  const body = kind === "groups" ? { name: `crash ${key}` } : alertInput(org, { name: `crash ${key}` });
  return { kind, name: body.name, req: { method: "POST", path: `/${kind}`, body, headers: { "idempotency-key": key } } };
}

/**
 * Runs WORKERS concurrent create loops until `dying()`, calling `acknowledged` after each 2xx; returns every write that
 * was started.
 */
async function writeLoad(org: OrgApi, dying: () => boolean, acknowledged: () => void): Promise<Write[]> {
  const writes: Write[] = [];
  const worker = async () => {
    while (!dying()) {
      const w = nextWrite(org, writes.length);
      writes.push(w);
      try {
        const res = await send(org.baseUrl, w.req, { token: org.token });
        if (res.status === 201) {
          w.id = (res.json as { id: string }).id;
          acknowledged();
        } else if (!dying()) throw new Error(`create answered ${res.status}: ${res.text}`);
      } catch (err) {
        if (!dying()) throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  return writes;
}

describe("kill -9 during a write load", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "cloudcost-crash-"));
  let sb: RunningSandbox | undefined;
  afterAll(async () => {
    await sb?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("every acknowledged write survives, the database is intact, and retries with the same Idempotency-Key do not duplicate", async () => {
    sb = await startSandbox({ dataDir, args: UNLIMITED });
    const org: OrgApi = { baseUrl: sb.baseUrl, token: await sb.token(), marker: "crash" };
    const running = sb;
    // Killed at the CRASH_ACKNOWLEDGED-th answer, while the other workers' writes are in flight.
    let dying = false;
    let answers = 0;
    let killed: Promise<void> = Promise.resolve();
    const writes = await writeLoad(
      org,
      () => dying,
      () => {
        if (++answers !== CRASH_ACKNOWLEDGED) return;
        dying = true;
        killed = running.kill();
      },
    );
    await killed;
    const acknowledged = writes.filter((w) => w.id !== undefined);

    const db = new Database(join(dataDir, "sandbox.db"));
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(db.pragma("foreign_key_check")).toEqual([]);
    } finally {
      db.close();
    }

    sb = await startSandbox({ dataDir, args: UNLIMITED });
    const after = { ...org, baseUrl: sb.baseUrl };
    const [groups, alerts] = await Promise.all([
      listAll<CloudGroup>(after.baseUrl, after.token, "/groups"),
      listAll<BudgetAlert>(after.baseUrl, after.token, "/alerts"),
    ]);
    const stored = new Map([...groups, ...alerts].map((o) => [o.id, o.name]));
    const lost = acknowledged.filter((w) => stored.get(w.id!) !== w.name);
    expect(lost).toEqual([]);

    // A client that got no answer retries with the same key: it gets the one object, never a second.
    const unanswered = writes.filter((w) => w.id === undefined);
    for (const w of unanswered) {
      const res = await send(after.baseUrl, w.req, { token: after.token });
      expect(res.status).toBe(201);
    }
    const [groupsAfter, alertsAfter] = await Promise.all([
      listAll<CloudGroup>(after.baseUrl, after.token, "/groups"),
      listAll<BudgetAlert>(after.baseUrl, after.token, "/alerts"),
    ]);
    const names = [...groupsAfter, ...alertsAfter].map((o) => o.name).filter((n) => n.startsWith("crash "));
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBe(writes.length);
  });
});
