import { Acknowledgement, FindingPage, ScanRun, ScanRunPage } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call } from "./api-client";

const FINAL = ["succeeded", "failed"];

describe("findings and scans", () => {
  let sandbox: RunningSandbox;
  let token: string;
  const open = async (list: string) => FindingPage.parse((await call(sandbox, "GET", `/${list}?limit=200`, { token })).body).items;
  const openTotal = async () => (await open("insights")).length + (await open("waste")).length + (await open("recommendations")).length;
  /** Polls a run until it is final (bounded: 200 polls). */
  const settle = async (runId: string, bearer = token): Promise<ScanRun[]> => {
    const seen: ScanRun[] = [];
    for (let i = 0; i < 200; i++) {
      const run = ScanRun.parse((await call(sandbox, "GET", `/scans/${runId}`, { token: bearer })).body);
      seen.push(run);
      if (FINAL.includes(run.state)) return seen;
      await new Promise((r) => setTimeout(r, 15));
    }
    throw new Error(`run ${runId} did not finish`);
  };

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0", "--scan-step-ms", "60"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  it("lists open findings of each kind with numeric IDs unique across kinds", async () => {
    const lists = [await open("insights"), await open("waste"), await open("recommendations")];
    expect(lists.map((l) => l[0]?.kind)).toEqual(["insight", "waste", "recommendation"]);
    const ids = lists.flat().map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^\d+$/);
    expect(lists.flat().every((f) => f.status === "open" && f.acknowledgedAt === null)).toBe(true);
  });

  it("acknowledges a finding: it leaves the open list, and acknowledging again returns the first acknowledgement", async () => {
    const target = (await open("waste"))[0]!;
    const first = await call(sandbox, "POST", `/waste/${target.id}/acknowledge`, { token });
    expect(first.status).toBe(200);
    const ack = Acknowledgement.parse(first.body);
    expect(ack).toMatchObject({ id: target.id, kind: "waste", status: "acknowledged" });
    expect((await open("waste")).map((f) => f.id)).not.toContain(target.id);
    const again = await call(sandbox, "POST", `/waste/${target.id}/acknowledge`, {
      token,
      headers: { "content-type": "application/json" },
    });
    expect(Acknowledgement.parse(again.body)).toEqual(ack);
  });

  it("answers with the finding's own ID when the path spells it with leading zeros", async () => {
    const target = (await open("recommendations"))[0]!;
    const r = await call(sandbox, "POST", `/recommendations/00${target.id}/acknowledge`, { token });
    expect(r.status).toBe(200);
    expect(Acknowledgement.parse(r.body)).toMatchObject({ id: target.id, kind: "recommendation" });
    expect((await open("recommendations")).map((f) => f.id)).not.toContain(target.id);
  });

  it("answers 404 when the ID belongs to another kind, to nothing, or is not numeric", async () => {
    const insight = (await open("insights"))[0]!;
    expect((await call(sandbox, "POST", `/recommendations/${insight.id}/acknowledge`, { token })).status).toBe(404);
    expect((await call(sandbox, "POST", "/insights/999999999/acknowledge", { token })).status).toBe(404);
    expect((await call(sandbox, "POST", "/insights/abc/acknowledge", { token })).status).toBe(404);
    expect((await open("insights")).map((f) => f.id)).toContain(insight.id);
  });

  it("runs a scan queued → running → succeeded, with a result counting the open findings", async () => {
    const started = await call(sandbox, "POST", "/scans", { token });
    expect(started.status).toBe(202);
    const run = ScanRun.parse(started.body);
    expect(run).toMatchObject({ state: "queued", startedAt: null, finishedAt: null, result: null, error: null });
    expect(started.headers.get("location")).toBe(`/api/v1/scans/${run.runId}`);
    const seen = await settle(run.runId);
    const states = [...new Set(seen.map((r) => r.state))];
    expect(["queued", "running", "succeeded"]).toEqual(expect.arrayContaining(states));
    const done = seen[seen.length - 1]!;
    expect(done.state).toBe("succeeded");
    expect(done.result).toEqual({ accountsScanned: 5, findingsFound: await openTotal(), newFindings: expect.any(Number) });
    expect(Date.parse(done.finishedAt!)).toBeGreaterThan(Date.parse(done.startedAt!));
  });

  it("lists recent runs newest first", async () => {
    const a = ScanRun.parse((await call(sandbox, "POST", "/scans", { token })).body).runId;
    const b = ScanRun.parse((await call(sandbox, "POST", "/scans", { token })).body).runId;
    const page = ScanRunPage.parse((await call(sandbox, "GET", "/scans?limit=2", { token })).body);
    expect(page.items.map((r) => r.runId)).toEqual([b, a]);
    expect(page.nextCursor).not.toBeNull();
    const next = ScanRunPage.parse((await call(sandbox, "GET", `/scans?limit=200&cursor=${page.nextCursor}`, { token })).body);
    expect(next.items.map((r) => r.runId)).not.toContain(a);
    expect(next.items.length).toBeGreaterThan(0);
  });

  it("fails a scan of an organization without connected accounts, with an error", async () => {
    expect((await sandbox.cli(["org", "create", "empty"])).code).toBe(0);
    const { token: emptyToken } = await sandbox.cliJson<{ token: string }>([
      "token",
      "create",
      "--org",
      "empty",
      "--scopes",
      "read,run",
      "--json",
    ]);
    const run = ScanRun.parse((await call(sandbox, "POST", "/scans", { token: emptyToken })).body);
    const done = (await settle(run.runId, emptyToken)).pop()!;
    expect(done).toMatchObject({ state: "failed", result: null, error: { code: "no_accounts" } });
    expect((await call(sandbox, "GET", `/scans/${run.runId}`, { token })).status).toBe(404);
  });
});
