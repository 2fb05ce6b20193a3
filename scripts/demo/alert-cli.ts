import { join } from "node:path";
import { ALERT_FIRES_PROJECT, type AlertDeployment, type DeployedAlert } from "./alert-deployment";
import { initStack, must, pulumi, pulumiEnv } from "./cli-story";
import { command, detail } from "./output";
import { runPulumi, type PulumiCli } from "./pulumi-cli";
import { REPO, type DemoCredentials } from "./story";

const ALERT_FIRES = join(REPO, "examples", "alert-fires");
const STACK = "demo-alert";

/** examples/alert-fires with the real Pulumi CLI, in the demo's file backend: `pulumi up`, its outputs, `pulumi destroy`. */
export function cliAlertDeployment(cli: PulumiCli, creds: DemoCredentials, dataDir: string): AlertDeployment {
  const env = pulumiEnv(dataDir);
  let initialized = false;
  return {
    label: "",
    async up(receiverUrl: string): Promise<DeployedAlert> {
      await initStack(cli, STACK, ALERT_FIRES, env, creds);
      initialized = true;
      await must(pulumi(cli, ["config", "set", `${ALERT_FIRES_PROJECT}:receiverUrl`, receiverUrl, "--stack", STACK], ALERT_FIRES, env));
      await must(pulumi(cli, ["up", "--yes", "--skip-preview", "--stack", STACK], ALERT_FIRES, env));
      // The outputs include the secret webhookSigningSecret: read, not echoed.
      const args = ["stack", "output", "--json", "--show-secrets", "--stack", STACK];
      command(`pulumi ${args.join(" ")}   (not shown: it holds the signing secret)`);
      const outputs = JSON.parse((await must(runPulumi(cli, args, { cwd: ALERT_FIRES, env }))).output) as DeployedAlert;
      detail(`alert ${outputs.alertId}`);
      return outputs;
    },
    async destroy(): Promise<void> {
      if (!initialized) return;
      await must(pulumi(cli, ["destroy", "--yes", "--stack", STACK], ALERT_FIRES, env));
      await must(pulumi(cli, ["stack", "rm", "--yes", STACK], ALERT_FIRES, env));
    },
  };
}
