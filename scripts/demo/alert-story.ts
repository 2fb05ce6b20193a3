import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { ForwardingMocks, outputValue, startProviderHost, type RunningSandbox } from "@cloudcost/testkit";
import { startReceiver, type ReceivedEvent } from "../../examples/alert-fires/receiver";
import { freePort } from "./free-port";
import { command, detail, quote, step } from "./output";
import { runProgram } from "./program";
import { REPO, hostConfig, stackConfig, type DemoCredentials } from "./story";

const ALERT_FIRES = join(REPO, "examples", "alert-fires");
const PROJECT = "cloudcost-alert-fires";
/** How long the demo waits for the webhook before it reports a failure (the sandbox sends it within a second or so). */
const WEBHOOK_WAIT_MS = 30_000;

const short = (type: string) => type.split(":").pop()!;

function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000} s`)), ms)),
  );
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * examples/alert-fires, short: deploy the stack (harness: the real provider host, the engine's part by the
 * test kit), start its receiver with the stack's secret output, inject spend with the sandbox CLI, and show
 * the verified webhook and the captured e-mail. Destroys what it created. True when both arrived.
 */
export async function alertStory(sandbox: RunningSandbox, creds: DemoCredentials): Promise<boolean> {
  step("An alert fires: examples/alert-fires (harness)");
  const host = await startProviderHost();
  const port = await freePort();
  const mocks = new ForwardingMocks(host, PROJECT, "demo");
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  try {
    await host.configure(hostConfig(creds));
    pulumi.runtime.setMocks(mocks, mocks.project, mocks.stack, false);
    // The program's own functions (cost reads, the signing secret) read the same settings from the stack config.
    const config = Object.fromEntries(stackConfig(creds).map(({ key, value }) => [key, value]));
    const outputs = await runProgram(ALERT_FIRES, { ...config, [`${PROJECT}:receiverUrl`]: `http://127.0.0.1:${port}/webhooks/cloudcost` });
    for (const r of mocks.resources) detail(`+ ${short(r.type)} ${r.name} created: ${r.id}`);
    const [amount, spend] = await Promise.all([
      outputValue(outputs.budgetAmount as pulumi.Output<number>),
      outputValue(outputs.spendThisMonth as pulumi.Output<number>),
    ]);
    detail(`budget ${amount} USD; spend so far this month ${spend} USD`);

    const secret = await outputValue(outputs.webhookSigningSecret as pulumi.Output<string>);
    receiver = await startReceiver({ secret, port, log: (line) => detail(`receiver: ${line}`) });
    detail(`receiver listening at ${receiver.url}, verifying with the stack's secret output webhookSigningSecret (not shown)`);

    const alertId = mocks.resources.find((r) => r.name === "checkout-monthly")!.id;
    const spendArgs = ["spend", "add", "--org", "demo", "--account", "444455556666", "--service", "Amazon EC2", "--amount", "150"];
    // Printed as a shell would need it: "Amazon EC2" is one argument.
    command(`cloudcost-sandbox ${spendArgs.map((a) => (a.includes(" ") ? `"${a}"` : a)).join(" ")}`);
    quote((await sandbox.cli(spendArgs)).stdout);
    const event: ReceivedEvent = await within(
      WEBHOOK_WAIT_MS,
      receiver.next((e) => e.data.alertId === alertId),
      "the webhook",
    );

    command("cloudcost-sandbox outbox list --org demo");
    const mail = (await sandbox.cli(["outbox", "list", "--org", "demo"])).stdout.split("\n").filter((l) => l.includes(event.id));
    quote(mail.join("\n"));

    return mail.length > 0;
  } catch (error) {
    detail(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  } finally {
    await receiver?.close();
    // `pulumi destroy`: the alert before the group it covers.
    for (const r of [...mocks.resources].reverse()) {
      await host.delete(r.urn, r.id, r.state);
      detail(`- ${short(r.type)} ${r.name} deleted`);
    }
    await host.stop();
  }
}
