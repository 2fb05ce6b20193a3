import { BudgetAlert } from "@cloudcost/pulumi";
import { z } from "@cloudcost/api";
import { allowedEmailDomains } from "../config/fields";
import { AlertView, readAlert } from "../inputs/budget-alert";
import { UNKNOWN, knownElements } from "../inputs/raw";
import { disallowedRecipientMessages } from "../rules/email-domain";
import { resourcePolicy } from "./define";
import { composable } from "../compose";

export const AlertRecipientsConfig = z.object({
  minRecipients: z.number().int().min(0).max(50).default(1).describe("Fewest distinct e-mail recipients an alert must have."),
  allowedEmailDomains: allowedEmailDomains(),
});
export type AlertRecipientsConfig = z.output<typeof AlertRecipientsConfig>;

export function checkAlertRecipients(alert: AlertView, config: AlertRecipientsConfig): string[] {
  if (alert.recipients === UNKNOWN) return [];
  const known = knownElements(alert.recipients);
  const complete = known.length === alert.recipients.length;
  const messages: string[] = [];
  const distinct = new Set(known).size;
  if (complete && distinct < config.minRecipients) {
    messages.push(`the alert has ${distinct} recipient(s) but needs at least ${config.minRecipients}: add e-mail addresses to recipients`);
  }
  return [...messages, ...disallowedRecipientMessages(alert.recipients, config.allowedEmailDomains)];
}

export const budgetAlertRecipients = composable(
  resourcePolicy(BudgetAlert, {
    name: "budget-alert-recipients",
    description: "A budget alert notifies at least one recipient, and every recipient is in an allowed e-mail domain.",
    enforcementLevel: "mandatory",
    config: AlertRecipientsConfig,
    read: readAlert,
    check: checkAlertRecipients,
  }),
  AlertRecipientsConfig,
);
