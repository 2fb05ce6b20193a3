import { bootstrapDataFolder } from "./bootstrap";
import type { SandboxConfig, SandboxContext } from "./context";
import { Costs } from "../costs/cost-reads";
import { openDatabase } from "../store/connection";
import { Credentials } from "../identity/credentials";
import { Organizations } from "../store/organizations";
import { Accounts } from "../store/accounts";
import { alertStore } from "../store/alerts";
import { Findings } from "../store/findings";
import { Groups } from "../store/groups";
import { IdempotencyKeys } from "../store/idempotency-keys";
import { reportStore } from "../store/reports";
import { Scans } from "../store/scans";
import { Clocks } from "../store/clocks";
import { InjectedSpend } from "../store/injected-spend";
import { Events } from "../store/events";
import { Deliveries } from "../store/deliveries";
import { Outbox } from "../store/outbox";
import { SigningSecrets } from "../store/signing-secrets";
import { ReportRuns } from "../store/report-runs";

/** Opens the data folder and wires every store; a fresh folder is bootstrapped with the `demo` organization. */
export function openContext(config: SandboxConfig): SandboxContext {
  const db = openDatabase(config.dataDir);
  const orgs = new Organizations(db);
  const accounts = new Accounts(db);
  const groups = new Groups(db, accounts);
  const clocks = new Clocks(db);
  const injectedSpend = new InjectedSpend(db);
  const reportRuns = new ReportRuns(db);
  const costs = new Costs(orgs, accounts, groups, clocks, injectedSpend);
  const findings = new Findings(db, orgs);
  const ctx: SandboxContext = {
    db,
    config,
    orgs,
    credentials: new Credentials(db),
    accounts,
    groups,
    alerts: alertStore(db, groups, costs, clocks),
    reports: reportStore(db, groups, clocks, reportRuns),
    findings,
    scans: new Scans(db, accounts, findings, config.scanStepMs),
    costs,
    idempotencyKeys: new IdempotencyKeys(db),
    clocks,
    injectedSpend,
    events: new Events(db),
    deliveries: new Deliveries(db),
    outbox: new Outbox(db),
    signingSecrets: new SigningSecrets(db),
    reportRuns,
  };
  bootstrapDataFolder(ctx);
  return ctx;
}
