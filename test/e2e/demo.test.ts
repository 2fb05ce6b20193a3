import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";
import { runDemo, stateOf, type DemoRun, type SandboxState } from "./demo-run";

/**
 * `npm run demo -- --exit` end to end, the way a new user runs it on a machine without the Pulumi CLI:
 * the story through the real dynamic-provider host and policy-pack processes. Checks what it prints
 * and what it leaves in the sandbox's data folder.
 */
let dataDir: string;
let run: DemoRun;
let state: SandboxState;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "cloudcost-demo-"));
  run = await runDemo("harness", dataDir, START_TIMEOUT_MS);
  state = await stateOf(dataDir);
});

afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run demo -- --exit (without the Pulumi CLI)", () => {
  it("completes the story and ends by itself with success", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ok\s+deployed the quickstart with the policy pack/);
    expect(run.stdout).toMatch(/ok\s+refresh showed the change made behind Pulumi's back/);
    expect(run.stdout).toMatch(/ok\s+the policy pack rejected examples\/policy-violations/);
    expect(run.stdout).toMatch(/ok\s+destroyed everything the stack created/);
    expect(run.stdout).toMatch(/ok\s+an alert fired: webhook received and verified, e-mail captured in the outbox/);
  });

  it("prints the data folder and labels every step that runs without the engine", () => {
    expect(run.stdout).toContain(`Data folder: ${dataDir}`);
    const steps = run.stdout.split("\n").filter((l) => /^== \d+\. (Deploy|Change|Find|A stack|Destroy)/.test(l));
    expect(steps).toHaveLength(5);
    for (const s of steps) expect(s).toMatch(/\(harness\)$/);
  });

  it("deploys the three quickstart resources after the policy pack passed them", () => {
    expect(run.stdout).toMatch(/policy pack: 3 resources analyzed, 0 violation\(s\)/);
    for (const name of ["CloudGroup web-shop", "BudgetAlert web-shop-monthly", "ScheduledReport web-shop-weekly"]) {
      expect(run.stdout).toMatch(new RegExp(`\\+ ${name} created: \\w+_\\w+`));
    }
  });

  it("shows the amount changed behind Pulumi's back as drift", () => {
    expect(run.stdout).toMatch(/~ BudgetAlert web-shop-monthly: amount 5000 => 7500 \(read from the service\)/);
    expect(run.stdout).toMatch(/the next `pulumi up` updates web-shop-monthly back to the program's amount 5000/);
  });

  it("shows the policy pack's messages for the rejected stack", () => {
    expect(run.stdout).toContain(
      '[mandatory] budget-alert-currency (euro-budget): currency "EUR" is not allowed: set currency to one of USD',
    );
    expect(run.stdout).toMatch(/\[advisory\] cloud-group-exclusive-membership \(overlap\)/);
    // examples/policy-violations: 16 resources, 13 violations (issue 27 added the threshold-amount and tag-key cases).
    expect(run.stdout).toMatch(/policy pack: 16 resources analyzed, 13 violation\(s\)/);
  });

  it("never prints the OAuth client's secret or the webhook signing secret", () => {
    expect(run.stdout).toMatch(/client_id ccc_\w+/);
    expect(run.stdout).not.toMatch(/ccs_\w+/);
    expect(run.stdout).not.toMatch(/whsec_/);
  });

  it("shows examples/alert-fires: spend injected, the webhook verified by the receiver, the e-mail in the outbox", () => {
    expect(run.stdout).toMatch(/== \d+\. An alert fires: examples\/alert-fires \(harness\)/);
    expect(run.stdout).toContain('$ cloudcost-sandbox spend add --org demo --account 444455556666 --service "Amazon EC2" --amount 150');
    const event =
      /receiver: received and verified (evt_\w+) budget_alert\.threshold_crossed: "Checkout monthly budget" reached 100% \(actual\)/.exec(
        run.stdout,
      )?.[1];
    expect(event).toBeDefined();
    expect(run.stdout).toMatch(new RegExp(`\\| msg_\\w+ .* to oncall@example\\.com .* event ${event}`));
  });

  it("leaves the sandbox as it found it: only the portal-made group, no alerts or reports", () => {
    expect(state).toEqual({ groups: [{ name: "Production", source: "portal" }], alerts: 0, reports: 0 });
  });
});
