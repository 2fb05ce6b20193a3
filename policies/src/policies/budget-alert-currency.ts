import { BudgetAlert } from "@cloudcost/pulumi";
import { z } from "@cloudcost/api";
import { CurrencyCode } from "../config/fields";
import { AlertView, readAlert } from "../inputs/budget-alert";
import { UNKNOWN } from "../inputs/raw";
import { resourcePolicy } from "./define";
import { composable } from "../compose";

export const CurrencyConfig = z.object({
  allowedCurrencies: z.array(CurrencyCode).min(1).default(["USD"]).describe("ISO 4217 codes budget alerts may use."),
});
export type CurrencyConfig = z.output<typeof CurrencyConfig>;

export function checkCurrency(alert: AlertView, config: CurrencyConfig): string[] {
  if (alert.currency === UNKNOWN || config.allowedCurrencies.includes(alert.currency)) return [];
  return [`currency "${alert.currency}" is not allowed: set currency to one of ${config.allowedCurrencies.join(", ")}`];
}

export const budgetAlertCurrency = composable(
  resourcePolicy(BudgetAlert, {
    name: "budget-alert-currency",
    description: "A budget alert uses one of the allowed currencies (default currency: USD).",
    enforcementLevel: "mandatory",
    config: CurrencyConfig,
    read: readAlert,
    check: checkCurrency,
  }),
  CurrencyConfig,
);
