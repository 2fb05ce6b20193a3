import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEMO_USER } from "@cloudcost/sandbox";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { cliAlertDeployment } from "./alert-cli";
import type { AlertDeployment } from "./alert-deployment";
import { harnessAlertDeployment } from "./alert-harness";
import { alertStory } from "./alert-story";
import { cliStory, type StoryOutcome } from "./cli-story";
import { harnessStory } from "./harness-story";
import { detail, step } from "./output";
import { findPulumiCli } from "./pulumi-cli";
import { REPO, type DemoCredentials } from "./story";

/** The sandbox's documented portal user (sandbox/OAUTH.md, "Seeded user"). */
interface Options {
  /** End after the story instead of serving the portal (the test suite uses this). */
  exit: boolean;
  dataDir: string;
  /** `auto`: the Pulumi CLI when it can be had, else the harness. */
  engine: "auto" | "cli" | "harness";
}

function options(): Options {
  const { values } = parseArgs({
    options: { exit: { type: "boolean", default: false }, data: { type: "string" }, engine: { type: "string" } },
    allowPositionals: false,
  });
  const engine = values.engine ?? process.env.CLOUDCOST_DEMO_ENGINE ?? "auto";
  if (engine !== "auto" && engine !== "cli" && engine !== "harness")
    throw new Error(`--engine must be auto, cli or harness, not "${engine}"`);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
  return {
    exit: values.exit || process.env.CLOUDCOST_DEMO_EXIT === "1",
    dataDir: resolve(values.data ?? process.env.CLOUDCOST_DEMO_DATA ?? join(REPO, ".sandbox", `demo-${stamp}`)),
    engine,
  };
}

/** An OAuth client with read and write scopes, made with the sandbox CLI (the portal's API Access page does the same). */
async function createCredentials(sandbox: RunningSandbox): Promise<DemoCredentials> {
  const client = await sandbox.cliJson<{ client_id: string; client_secret: string }>([
    "client",
    "create",
    "--org",
    "demo",
    "--name",
    "pulumi-demo",
    "--scopes",
    "read,write",
    "--json",
  ]);
  return { apiUrl: sandbox.baseUrl, clientId: client.client_id, clientSecret: client.client_secret };
}

/** The story on the real CLI when it can be had, else on the harness; the alert step then runs on the same engine. */
async function runStory(opts: Options, creds: DemoCredentials): Promise<{ outcome: StoryOutcome; alerts: AlertDeployment }> {
  if (opts.engine !== "harness") {
    const lookup = await findPulumiCli();
    if (lookup.found)
      return { outcome: await cliStory(lookup.cli, creds, opts.dataDir), alerts: cliAlertDeployment(lookup.cli, creds, opts.dataDir) };
    if (opts.engine === "cli") throw new Error(`the Pulumi CLI is required (--engine cli) but ${lookup.reason}`);
    console.log(
      `\nPulumi CLI unavailable (${lookup.reason}): running the same story through the real dynamic-provider host and policy-pack processes instead.`,
    );
  }
  return { outcome: await harnessStory(creds), alerts: harnessAlertDeployment(creds) };
}

function summarize(outcome: StoryOutcome, alertFired: boolean): boolean {
  step("Summary");
  const line = (ok: boolean, text: string) => detail(`${ok ? "ok  " : "FAIL"} ${text}`);
  line(outcome.deployed, "deployed the quickstart with the policy pack");
  line(outcome.driftShown, "refresh showed the change made behind Pulumi's back");
  line(outcome.policyBlocked, "the policy pack rejected examples/policy-violations");
  line(outcome.destroyed, "destroyed everything the stack created");
  line(alertFired, "an alert fired: webhook received and verified, e-mail captured in the outbox");
  return outcome.deployed && outcome.driftShown && outcome.policyBlocked && outcome.destroyed && alertFired;
}

function serveUntilInterrupted(sandbox: RunningSandbox): void {
  step("The sandbox keeps serving: look around");
  detail(`Portal:   ${sandbox.origin}/portal   (the alert's event: /portal/events; its e-mail: /portal/outbox)`);
  detail(`Sign in:  ${DEMO_USER.email} / ${DEMO_USER.password}`);
  detail(`API:      ${sandbox.baseUrl}`);
  detail("Press Ctrl-C to stop.");
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => {
      console.log("\nStopping the sandbox (its data folder stays) ...");
      void sandbox.stop().then(() => process.exit(0));
    });
  }
}

async function main(): Promise<void> {
  // Interrupted mid-story: exit, and the harness stops every process it started (child-process.ts).
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
  const opts = options();
  mkdirSync(opts.dataDir, { recursive: true });
  step("Start the sandbox on a fresh data folder");
  detail(`Data folder: ${opts.dataDir}`);
  const sandbox = await startSandbox({ dataDir: opts.dataDir });
  detail(`API: ${sandbox.baseUrl}   Portal: ${sandbox.origin}/portal`);
  try {
    step("Create credentials: an OAuth client with the read and write scopes");
    const creds = await createCredentials(sandbox);
    detail(`client_id ${creds.clientId}; its secret goes into the stack config as a secret and is not shown`);
    const { outcome, alerts } = await runStory(opts, creds);
    const ok = summarize(outcome, await alertStory(sandbox, alerts));
    if (opts.exit) {
      await sandbox.stop();
      process.exitCode = ok ? 0 : 1;
      return;
    }
    serveUntilInterrupted(sandbox);
  } catch (err) {
    await sandbox.stop();
    throw err;
  }
}

main().catch((err: unknown) => {
  console.error(`\ndemo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
