import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { command, detail, quote, step } from "./output";
import { runPulumi, type PulumiCli, type PulumiRun } from "./pulumi-cli";
import {
  DRIFTED_AMOUNT,
  POLICY_PACK,
  POLICY_VIOLATIONS,
  REPO,
  changeAlertBehindPulumisBack,
  stackConfig,
  type DemoCredentials,
} from "./story";

const STACK = "demo";
const VIOLATIONS_STACK = "demo-violations";

/** What happened, for the closing summary (and the end-to-end test). */
export interface StoryOutcome {
  deployed: boolean;
  driftShown: boolean;
  policyBlocked: boolean;
  destroyed: boolean;
}

/**
 * Pulumi's own environment for the demo: a local file backend inside the demo's data folder (no Pulumi
 * account), a passphrase for the stack's secrets, and no CLOUDCOST_* variables so only stack config counts.
 */
export function pulumiEnv(dataDir: string): NodeJS.ProcessEnv {
  const state = join(dataDir, "pulumi-state");
  mkdirSync(state, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("CLOUDCOST_")) delete env[key];
  return {
    ...env,
    PULUMI_BACKEND_URL: `file://${state}`,
    // Encrypts the stack's secrets (the client secret) in the local state; the demo stack is thrown away.
    PULUMI_CONFIG_PASSPHRASE: "cloudcost-demo",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // Offline: the provider is a dynamic one (no plugin to download) and no registry is asked.
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_DISABLE_REGISTRY_RESOLVE: "true",
    // Node 26's FFI ExperimentalWarning, printed when the SDK serializes the dynamic provider (README,
    // Troubleshooting): harmless, and noise in the story.
    NODE_OPTIONS: [env.NODE_OPTIONS, "--disable-warning=ExperimentalWarning"].filter(Boolean).join(" "),
    // The root `npm run typecheck` type-checks the examples; the program itself only needs transpiling.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
  };
}

export async function pulumi(cli: PulumiCli, args: string[], cwd: string, env: NodeJS.ProcessEnv, stdin?: string): Promise<PulumiRun> {
  command(`pulumi ${args.join(" ")}`);
  return runPulumi(cli, args, { cwd, env, stdin, echo: (line) => quote(line) });
}

export async function initStack(cli: PulumiCli, stack: string, cwd: string, env: NodeJS.ProcessEnv, creds: DemoCredentials): Promise<void> {
  // A config file left by an interrupted earlier run would belong to another (deleted) backend.
  rmSync(join(cwd, `Pulumi.${stack}.yaml`), { force: true });
  await must(pulumi(cli, ["stack", "init", stack, "--secrets-provider", "passphrase"], cwd, env));
  for (const { key, value, secret } of stackConfig(creds)) {
    const args = secret ? ["config", "set", "--secret", key, "--stack", stack] : ["config", "set", key, value, "--stack", stack];
    await must(pulumi(cli, args, cwd, env, secret ? value : undefined));
  }
}

export async function must(run: Promise<PulumiRun>): Promise<PulumiRun> {
  const result = await run;
  if (result.code !== 0) throw new Error(`pulumi exited with ${result.code}; see its output above`);
  return result;
}

/** The story with the real Pulumi CLI: up (with the policy pack), drift, a rejected stack, destroy. */
export async function cliStory(cli: PulumiCli, creds: DemoCredentials, dataDir: string): Promise<StoryOutcome> {
  const env = pulumiEnv(dataDir);
  const pack = ["--policy-pack", POLICY_PACK];

  step("Deploy the quickstart with the policy pack");
  detail(`Pulumi CLI ${cli.version}, state in a local file backend: ${env.PULUMI_BACKEND_URL}`);
  await initStack(cli, STACK, REPO, env, creds);
  await must(pulumi(cli, ["up", "--yes", "--skip-preview", "--stack", STACK, ...pack], REPO, env));
  const alertId = (await must(runPulumi(cli, ["stack", "output", "alertId", "--stack", STACK], { cwd: REPO, env }))).output.trim();

  step("Change the alert behind Pulumi's back");
  const before = await changeAlertBehindPulumisBack(creds, alertId);
  detail(`PUT /alerts/${alertId}: amount ${before} -> ${DRIFTED_AMOUNT} (as if someone edited it in the portal)`);

  step("Find the drift: pulumi preview --refresh");
  const preview = await must(pulumi(cli, ["preview", "--refresh", "--diff", "--stack", STACK, ...pack], REPO, env));
  const driftShown = preview.output.includes(String(DRIFTED_AMOUNT));
  detail(
    driftShown
      ? `Refresh read amount ${DRIFTED_AMOUNT} from the service; the next \`pulumi up\` sets it back to ${before}.`
      : "No drift reported.",
  );

  step("A stack the policy pack rejects (examples/policy-violations)");
  await initStack(cli, VIOLATIONS_STACK, POLICY_VIOLATIONS, env, creds);
  const rejected = await pulumi(
    cli,
    ["preview", "--stack", VIOLATIONS_STACK, ...pack, "--policy-pack-config", "policy-config.json"],
    POLICY_VIOLATIONS,
    env,
  );
  await must(pulumi(cli, ["stack", "rm", "--yes", "--force", VIOLATIONS_STACK], POLICY_VIOLATIONS, env));
  const policyBlocked = rejected.code !== 0 && rejected.output.includes("mandatory");
  detail(
    policyBlocked
      ? "Rejected before anything was created: the messages above name the field to fix."
      : "The policy pack did not reject the stack.",
  );

  step("Destroy");
  const destroyed = (await pulumi(cli, ["destroy", "--yes", "--stack", STACK], REPO, env)).code === 0;
  await must(pulumi(cli, ["stack", "rm", "--yes", STACK], REPO, env));
  return { deployed: true, driftShown, policyBlocked, destroyed };
}
