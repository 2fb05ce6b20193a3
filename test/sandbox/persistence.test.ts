import { BudgetAlert, CloudGroup, FindingPage, ScanRun } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_AWS, alertBody, call } from "./api-client";

describe("persistence across restarts", () => {
  let first: RunningSandbox;
  beforeAll(async () => {
    first = await startSandbox({ args: ["--scan-step-ms", "400"] });
  });
  afterAll(() => first.dispose());

  it("keeps groups, members, alerts, acknowledgements and tokens after a graceful stop", async () => {
    const token = await first.token();
    const group = CloudGroup.parse((await call(first, "POST", "/groups", { token, json: { name: "Durable" } })).body);
    await call(first, "POST", `/groups/${group.id}/members`, { token, json: { provider: "aws", accountId: DEMO_AWS[0] } });
    const alert = BudgetAlert.parse((await call(first, "POST", "/alerts", { token, json: alertBody({ groupId: group.id }) })).body);
    const openWaste = async (sandbox: RunningSandbox) =>
      FindingPage.parse((await call(sandbox, "GET", "/waste?limit=200", { token })).body).items.map((f) => f.id);
    const acknowledged = (await openWaste(first))[0]!;
    expect((await call(first, "POST", `/waste/${acknowledged}/acknowledge`, { token })).status).toBe(200);
    await first.stop();
    const second = await startSandbox({ dataDir: first.dataDir });
    try {
      expect(CloudGroup.parse((await call(second, "GET", `/groups/${group.id}`, { token })).body).members).toEqual([
        { provider: "aws", accountId: DEMO_AWS[0] },
      ]);
      expect(BudgetAlert.parse((await call(second, "GET", `/alerts/${alert.id}`, { token })).body).groupId).toBe(group.id);
      const stillOpen = await openWaste(second);
      expect(stillOpen.length).toBeGreaterThan(0);
      expect(stillOpen).not.toContain(acknowledged);
    } finally {
      await second.stop();
    }
  });

  it("loses no acknowledged write on kill -9", async () => {
    const running = await startSandbox({ dataDir: first.dataDir });
    const token = await running.token();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push(CloudGroup.parse((await call(running, "POST", "/groups", { token, json: { name: `Crash ${i}` } })).body).id);
    await running.kill();
    const revived = await startSandbox({ dataDir: first.dataDir });
    try {
      for (const id of ids) expect((await call(revived, "GET", `/groups/${id}`, { token })).status).toBe(200);
    } finally {
      await revived.stop();
    }
  });

  it("finishes a scan that was queued when the server stopped", async () => {
    const running = await startSandbox({ dataDir: first.dataDir, args: ["--scan-step-ms", "300"] });
    const token = await running.token();
    const run = ScanRun.parse((await call(running, "POST", "/scans", { token })).body);
    await running.kill();
    const revived = await startSandbox({ dataDir: first.dataDir });
    try {
      let state = "queued";
      for (let i = 0; i < 100 && state !== "succeeded"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        state = ScanRun.parse((await call(revived, "GET", `/scans/${run.runId}`, { token })).body).state;
      }
      expect(state).toBe("succeeded");
    } finally {
      await revived.stop();
    }
  });
});
