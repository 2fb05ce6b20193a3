import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { ForwardingMocks, outputValue, startProviderHost, type ProviderHost } from "@cloudcost/testkit";
import { ALERT_FIRES_PROJECT, type AlertDeployment, type DeployedAlert } from "./alert-deployment";
import { detail } from "./output";
import { runProgram } from "./program";
import { REPO, hostConfig, stackConfig, type DemoCredentials } from "./story";

const ALERT_FIRES = join(REPO, "examples", "alert-fires");
const short = (type: string) => type.split(":").pop()!;

/**
 * examples/alert-fires without the Pulumi CLI: the program under the SDK, the real dynamic-provider host, the
 * engine's part by the test kit (only where no CLI can be had: the demo's other steps run the same way then).
 */
export function harnessAlertDeployment(creds: DemoCredentials): AlertDeployment {
  let host: ProviderHost | undefined;
  let mocks: ForwardingMocks | undefined;
  return {
    label: " (harness)",
    async up(receiverUrl: string): Promise<DeployedAlert> {
      host = await startProviderHost();
      mocks = new ForwardingMocks(host, ALERT_FIRES_PROJECT, "demo");
      await host.configure(hostConfig(creds));
      pulumi.runtime.setMocks(mocks, mocks.project, mocks.stack, false);
      // The program's own functions (cost reads, the signing secret) read the same settings from the stack config.
      const config = Object.fromEntries(stackConfig(creds).map(({ key, value }) => [key, value]));
      const outputs = await runProgram(ALERT_FIRES, { ...config, [`${ALERT_FIRES_PROJECT}:receiverUrl`]: receiverUrl });
      for (const r of mocks.resources) detail(`+ ${short(r.type)} ${r.name} created: ${r.id}`);
      return {
        alertId: mocks.resources.find((r) => r.name === "checkout-monthly")!.id,
        budgetAmount: await outputValue(outputs.budgetAmount as pulumi.Output<number>),
        spendThisMonth: await outputValue(outputs.spendThisMonth as pulumi.Output<number>),
        webhookSigningSecret: await outputValue(outputs.webhookSigningSecret as pulumi.Output<string>),
      };
    },
    async destroy(): Promise<void> {
      if (!host) return;
      // `pulumi destroy`: the alert before the group it covers.
      for (const r of [...(mocks?.resources ?? [])].reverse()) {
        await host.delete(r.urn, r.id, r.state);
        detail(`- ${short(r.type)} ${r.name} deleted`);
      }
      await host.stop();
    },
  };
}
