import { BudgetAlert } from "@cloudcost/pulumi";
import { z } from "@cloudcost/api";
import { allowedEmailDomains } from "../config/fields";
import { AlertView, readAlert } from "../inputs/budget-alert";
import { UNKNOWN, knownElements } from "../inputs/raw";
import { disallowedRecipientMessages } from "../rules/email-domain";
import { resourcePolicy } from "./define";
import { composable } from "../compose";

export const AlertRecipientsConfig = z.object({
  minRecipients: z
    .number()
    .int()
    .min(0)
    .max(50)
    .default(1)
    .describe("Fewest distinct e-mail recipients each threshold must reach (a routed threshold its own, the others the alert's)."),
  allowedEmailDomains: allowedEmailDomains(),
});
export type AlertRecipientsConfig = z.output<typeof AlertRecipientsConfig>;

/**
 * Every threshold must reach `minRecipients` people: a threshold with its own `recipients` (issue 27's
 * routing) by those, the others by the alert's. Each address, the alert's or a threshold's, must be in an
 * allowed domain.
 */
export function checkAlertRecipients(alert: AlertView, config: AlertRecipientsConfig): string[] {
  const messages: string[] = [];
  const routed = alert.thresholds === UNKNOWN ? [] : alert.thresholds.map((t, i) => ({ t, i }));
  const usesAlertList = alert.thresholds === UNKNOWN || routed.some(({ t }) => typeof t === "symbol" || t.recipients == null);
  if (alert.recipients !== UNKNOWN) {
    const known = knownElements(alert.recipients);
    const distinct = new Set(known).size;
    if (usesAlertList && known.length === alert.recipients.length && distinct < config.minRecipients) {
      messages.push(
        `the alert has ${distinct} recipient(s) but needs at least ${config.minRecipients}: add e-mail addresses to recipients`,
      );
    }
    messages.push(...disallowedRecipientMessages(alert.recipients, config.allowedEmailDomains));
  }
  for (const { t, i } of routed) {
    if (typeof t === "symbol" || t.recipients == null) continue;
    const distinct = new Set(t.recipients).size;
    if (distinct < config.minRecipients)
      messages.push(
        `thresholds[${i}] routes to ${distinct} recipient(s) of its own but needs at least ${config.minRecipients}: add e-mail addresses to thresholds[${i}].recipients, or remove it to use the alert's recipients`,
      );
    messages.push(
      ...disallowedRecipientMessages(t.recipients, config.allowedEmailDomains).map((m) =>
        m.replace(/^recipients\[/, `thresholds[${i}].recipients[`),
      ),
    );
  }
  return messages;
}

export const budgetAlertRecipients = composable(
  resourcePolicy(BudgetAlert, {
    name: "budget-alert-recipients",
    description:
      "Every threshold of a budget alert notifies at least one recipient (its own, or the alert's), and every recipient is in an allowed e-mail domain.",
    enforcementLevel: "mandatory",
    config: AlertRecipientsConfig,
    read: readAlert,
    check: checkAlertRecipients,
  }),
  AlertRecipientsConfig,
);
