import * as pulumi from "@pulumi/pulumi";
import { programClient } from "./program-client";

/**
 * The organization's webhook signing secret (`GET /webhooks/signing-secret`, Standard Webhooks
 * `whsec_…`), for a stack that deploys the receiver of its alerts' webhooks and must hand it the key to
 * verify them with.
 *
 * Only the Output form exists, and it is always a Pulumi secret: the engine encrypts it wherever it is
 * stored (stack outputs, the inputs of resources it flows into) and masks it in logs. A plain Promise
 * form would hand the program the bare string and lose that marking at the first `await`. Needs a
 * credential with the `write` scope (the key lets its holder forge webhooks). After a rotation the next
 * `pulumi up` picks up the new secret; for 24 h webhooks carry the previous signature too.
 */
export function getWebhookSigningSecret(): pulumi.Output<string> {
  const client = programClient();
  return pulumi.secret(client.getWebhookSigningSecret().then((answer) => answer.secret));
}
