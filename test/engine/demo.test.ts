import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runDemo, stateOf, type DemoRun, type SandboxState } from "../e2e/demo-run";

/**
 * `npm run demo` with the real Pulumi CLI (`--engine cli`: scripts/pulumi-cli.js's build, or one on PATH):
 * `pulumi up` with the policy pack, drift found by `pulumi preview --refresh`, a stack the pack rejects,
 * `pulumi destroy` — on a local file backend against a sandbox — and what it leaves in the data folder.
 */
describe("npm run demo with the real Pulumi CLI", () => {
  let dataDir: string;
  let run: DemoRun;
  let state: SandboxState;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "cloudcost-e2e-cli-"));
    run = await runDemo("cli", dataDir, 840_000);
    state = await stateOf(dataDir);
  });

  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("deploys the quickstart with the policy pack", () => {
    expect(run.stdout).toMatch(/pulumi up --yes --skip-preview --stack demo --policy-pack/);
    expect(run.stdout).toMatch(/ok\s+deployed the quickstart/);
  });

  it("shows the change made behind Pulumi's back in `pulumi preview --refresh`", () => {
    expect(run.stdout).toMatch(/amount.*7500|7500.*amount/);
    expect(run.stdout).toMatch(/ok\s+refresh showed the change/);
  });

  it("is stopped by the policy pack on examples/policy-violations", () => {
    expect(run.stdout).toMatch(/mandatory/);
    expect(run.stdout).toMatch(/budget-alert-group-scope/);
    expect(run.stdout).toMatch(/ok\s+the policy pack rejected/);
  });

  it("runs the alert step on the real CLI too: `pulumi up` of examples/alert-fires, the webhook verified, `pulumi destroy`", () => {
    expect(run.stdout).toMatch(/== \d+\. An alert fires: examples\/alert-fires\n/);
    expect(run.stdout).not.toContain("(harness)");
    expect(run.stdout).toContain("$ pulumi up --yes --skip-preview --stack demo-alert");
    expect(run.stdout).toMatch(/receiver: received and verified evt_\w+ budget_alert\.threshold_crossed/);
    expect(run.stdout).toContain("$ pulumi destroy --yes --stack demo-alert");
    expect(run.stdout).toMatch(/ok\s+an alert fired: webhook received and verified, e-mail captured in the outbox/);
    expect(run.stdout).not.toMatch(/whsec_/);
  });

  it("destroys what it created and ends by itself", () => {
    expect(run.code).toBe(0);
    expect(state).toEqual({ groups: [{ name: "Production", source: "portal" }], alerts: 0, reports: 0 });
  });
});
