// A platform team's own pack, built from ours (policies/README.md, "Compose your own pack").
import { PolicyPack } from "@pulumi/policy";
import { budgetAlertCurrency, budgetAlertMaxAmount, budgetTotalCap, defaultPolicies } from "@cloudcost/policies/library";

const replaced = new Set(["budget-alert-currency", "budget-alert-max-amount", "budget-total-cap"]);

new PolicyPack("acme-budgets", {
  policies: [
    // Ours as shipped, except the three this team tunes.
    ...defaultPolicies().filter((p) => !replaced.has(p.name)),
    // Euro budgets only, and smaller ones by default; a stack's --policy-pack-config still overrides these.
    budgetAlertCurrency({ defaults: { allowedCurrencies: ["EUR"] } }),
    budgetAlertMaxAmount({ defaults: { maxMonthlyAmount: { EUR: 20_000 } } }),
    // The total cap warns instead of blocking.
    budgetTotalCap({ enforcementLevel: "advisory", defaults: { maxTotalMonthlyAmount: { EUR: 250_000 } } }),
  ],
});
