import { createServer } from "node:net";
import { BudgetAlert, type BudgetAlertArgs } from "@cloudcost/pulumi";
import { CloudCostClient, closeAllPools, type CostForecast } from "@cloudcost/api";
import { periodContaining } from "@cloudcost/api";
import { RunningPolicyPack, declareResources, startPolicyPack, RunningSandbox, startSandbox } from "@cloudcost/testkit";

/** The forecast policy in the real pack process against a real sandbox, and against a port nobody listens on. */
let sandbox: RunningSandbox;
let pack: RunningPolicyPack;
let orgForecast: CostForecast;
let group: { id: string; forecast: CostForecast };
let s3Forecast: CostForecast;
let thisPeriod: string;

const THRESHOLDS = [
  { percent: 100, basis: "actual" as const },
  { percent: 100, basis: "forecast" as const },
];

beforeAll(async () => {
  sandbox = await startSandbox();
  const token = await sandbox.token("read");
  pack = await startPolicyPack({ env: { CLOUDCOST_API_URL: sandbox.baseUrl, CLOUDCOST_API_TOKEN: token } });
  const client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } });
  const window = periodContaining("monthly", new Date());
  orgForecast = await client.getCostForecast(window);
  const first = (await client.listGroups().next()).value!;
  group = { id: first.id, forecast: await client.getCostForecast({ ...window, groupId: first.id }) };
  s3Forecast = await client.getCostForecast({ ...window, filters: { services: ["Amazon S3"] } });
  thisPeriod = window.from;
  await pack.configure();
});
afterAll(async () => {
  await pack?.stop();
  await sandbox?.dispose();
  await closeAllPools();
});

async function forecastDiagnostics(amount: number, groupId?: string, extra: Partial<BudgetAlertArgs> = {}) {
  const [alert] = await declareResources(() => [
    new BudgetAlert("b", { name: "B", amount, groupId, recipients: ["a@example.com"], thresholds: THRESHOLDS, ...extra }),
  ]);
  const result = await pack.analyze(alert!);
  return result.diagnostics.filter((d) => d.policyName === "budget-alert-forecast");
}

test("the sandbox has spend to compare with", () => {
  expect(orgForecast.total).toBeGreaterThan(0);
  expect(group.forecast.total).toBeGreaterThan(0);
});

test("a budget below the service's forecast is flagged: the alert would fire at once", async () => {
  const amount = Math.floor(group.forecast.total / 2);
  const diagnostics = await forecastDiagnostics(amount, group.id);
  expect(diagnostics).toHaveLength(1);
  expect(diagnostics[0]!.enforcementLevel).toBe("advisory");
  expect(diagnostics[0]!.message).toContain(
    `is below the ${group.forecast.total.toLocaleString("en-US", { maximumFractionDigits: 2 })} USD the service forecasts`,
  );
});

test("a budget far above the forecast is flagged: the alert would never fire", async () => {
  const diagnostics = await forecastDiagnostics(Math.ceil(orgForecast.total * 10));
  expect(diagnostics.map((d) => d.message)).toEqual([expect.stringContaining("the alert would never fire")]);
});

test("a budget a little above the forecast passes", async () => {
  expect(await forecastDiagnostics(Math.ceil(group.forecast.total * 1.5), group.id)).toEqual([]);
});

test("an unreachable API is reported as advisory even when the policy is mandatory, and the run goes on", async () => {
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const apiUrl = `http://127.0.0.1:${port}/api/v1`;
  await pack.configure({ "budget-alert-forecast": { enforcementLevel: "mandatory", apiUrl, apiToken: "unused-token", timeoutMs: 1000 } });
  try {
    const diagnostics = await forecastDiagnostics(1000, group.id);
    expect(diagnostics).toEqual([expect.objectContaining({ enforcementLevel: "advisory" })]);
    expect(diagnostics[0]!.message).toContain(`the forecast check was skipped: the Cloud Cost API at ${apiUrl} could not be reached`);
    expect(diagnostics[0]!.message).not.toContain("unused-token");
  } finally {
    await pack.configure();
  }
});

describe("issue 27: the alert's filters and this period's planned amount", () => {
  test("the forecast compared is the one of the alert's filters, not of its whole scope", async () => {
    expect(s3Forecast.total).toBeGreaterThan(0);
    expect(s3Forecast.total).toBeLessThan(orgForecast.total);
    // Above the S3 forecast but below the organization's: fine for an S3 budget, flagged for the whole organization.
    const amount = Math.ceil(s3Forecast.total * 1.2);
    expect(amount).toBeLessThan(orgForecast.total);
    expect(await forecastDiagnostics(amount, undefined, { filters: { services: ["Amazon S3"] } })).toEqual([]);
    expect((await forecastDiagnostics(amount)).map((d) => d.message)).toEqual([expect.stringContaining("the alert would fire at once")]);
  });

  test("a planned amount for the current period is what is compared; an amount set from history is not judged", async () => {
    const low = Math.floor(orgForecast.total / 2);
    const fine = Math.ceil(orgForecast.total * 1.2);
    expect(await forecastDiagnostics(low, undefined, { plannedAmounts: [{ periodStart: thisPeriod, amount: fine }] })).toEqual([]);
    expect(await forecastDiagnostics(low, undefined, { autoAdjust: { lookbackPeriods: 3 } })).toEqual([]);
  });
});
