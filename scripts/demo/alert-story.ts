import { type RunningSandbox } from "@cloudcost/testkit";
import { startReceiver, type ReceivedEvent } from "../../examples/alert-fires/receiver";
import type { AlertDeployment } from "./alert-deployment";
import { freePort } from "./free-port";
import { command, detail, quote, step } from "./output";

/** How long the demo waits for the webhook before it reports a failure (the sandbox sends it within a second or so). */
const WEBHOOK_WAIT_MS = 30_000;

function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000} s`)), ms)),
  );
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * examples/alert-fires, short: deploy the stack (on the engine the rest of the story ran on), start its receiver
 * with the stack's secret output, inject spend with the sandbox CLI, and show the verified webhook and the
 * captured e-mail. Destroys what it created. True when both arrived.
 */
export async function alertStory(sandbox: RunningSandbox, deployment: AlertDeployment): Promise<boolean> {
  step(`An alert fires: examples/alert-fires${deployment.label}`);
  const port = await freePort();
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  try {
    const deployed = await deployment.up(`http://127.0.0.1:${port}/webhooks/cloudcost`);
    detail(`budget ${deployed.budgetAmount} USD; spend so far this month ${deployed.spendThisMonth} USD`);

    receiver = await startReceiver({ secret: deployed.webhookSigningSecret, port, log: (line) => detail(`receiver: ${line}`) });
    detail(`receiver listening at ${receiver.url}, verifying with the stack's secret output webhookSigningSecret (not shown)`);

    const spendArgs = ["spend", "add", "--org", "demo", "--account", "444455556666", "--service", "Amazon EC2", "--amount", "150"];
    // Printed as a shell would need it: "Amazon EC2" is one argument.
    command(`cloudcost-sandbox ${spendArgs.map((a) => (a.includes(" ") ? `"${a}"` : a)).join(" ")}`);
    quote((await sandbox.cli(spendArgs)).stdout);
    // The injected spend is what crosses the alert's actual threshold. Its forecast threshold may cross in the same
    // evaluation (the projection to the period's end depends on the day of the month), and the two webhooks may arrive
    // in either order: the story waits for the one the spend caused, and shows that event's e-mail.
    const event: ReceivedEvent = await within(
      WEBHOOK_WAIT_MS,
      receiver.next((e) => e.data.alertId === deployed.alertId && (e.data.threshold as { basis?: string } | undefined)?.basis === "actual"),
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
    await deployment.destroy();
  }
}
