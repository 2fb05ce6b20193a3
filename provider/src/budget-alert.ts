import * as pulumi from "@pulumi/pulumi";
import type { CostFiltersArgs, CostFiltersOutput } from "./cost-filters";
import { cloudCostResource, inputsOf } from "./resource-class";
import provider = require("./providers/budget-alert");

/**
 * One alert threshold: a percent of the budget amount, or an absolute amount in the alert's currency, and
 * whether actual or forecast spend must reach it; optionally its own recipients (routing per threshold).
 */
export type ThresholdArgs = ({ percent: number; amount?: never } | { amount: number; percent?: never }) & {
  basis: "actual" | "forecast";
  /**
   * E-mail addresses notified when this threshold is crossed, instead of the alert's `recipients` (a set);
   * `[]`: nobody by e-mail (webhook only); absent or null: the alert's `recipients`.
   */
  recipients?: string[] | null;
};

/** The budget of one period, instead of `amount` (AWS planned budget limits). */
export interface PlannedAmountArgs {
  /** `YYYY-MM-DD`, the first day of a period of the alert. */
  periodStart: string;
  amount: number;
}

/** The budget set from history: the average spend of the last `lookbackPeriods` periods. */
export interface AutoAdjustArgs {
  lookbackPeriods: number;
}

/** Inputs of a {@link BudgetAlert}. */
export interface BudgetAlertArgs {
  /** 1–100 characters. */
  name: pulumi.Input<string>;
  /** Budget per period in `currency`, > 0, at most two decimal places. */
  amount: pulumi.Input<number>;
  /** ISO 4217 code; default "USD". */
  currency?: pulumi.Input<string>;
  /** Default "monthly". */
  period?: pulumi.Input<"monthly" | "quarterly" | "annual">;
  /** The Cloud Group the budget covers; omit for the whole organization. */
  groupId?: pulumi.Input<string>;
  /** A set of 1–10 thresholds; default `[{ percent: 100, basis: "actual" }]`. */
  thresholds?: pulumi.Input<pulumi.Input<ThresholdArgs>[]>;
  /** E-mail addresses (a set, compared case-insensitively), at most 50. */
  recipients?: pulumi.Input<pulumi.Input<string>[]>;
  /** Called when a threshold is crossed; https (http only for localhost). Kept secret in state. */
  webhookUrl?: pulumi.Input<string>;
  /** Default true. */
  enabled?: pulumi.Input<boolean>;
  /** Counts only the spend these filters match (with `groupId`, within the group). */
  filters?: pulumi.Input<CostFiltersArgs>;
  /** Amounts for given periods (a set by `periodStart`); other periods use `amount`. */
  plannedAmounts?: pulumi.Input<pulumi.Input<PlannedAmountArgs>[]>;
  /** Sets each period's budget to the mean spend of the last 1–12 complete periods (not with `plannedAmounts`); the result is the `effectiveAmount` output. */
  autoAdjust?: pulumi.Input<AutoAdjustArgs>;
  /** `YYYY-MM-DD`, any day: the first day the alert is active; updatable at any time (never forces a replacement). */
  startDate?: pulumi.Input<string>;
  /** `YYYY-MM-DD`, not before `startDate`: the last day the alert is active. */
  endDate?: pulumi.Input<string>;
  /** Take over this existing alert instead of creating one; see README "Adoption". */
  adoptId?: pulumi.Input<string>;
}

/** A budget alert (`/alerts`): notifies recipients when spend of a scope reaches a threshold of a budget. */
export class BudgetAlert extends cloudCostResource("BudgetAlert", provider) {
  declare readonly name: pulumi.Output<string>;
  declare readonly amount: pulumi.Output<number>;
  declare readonly currency: pulumi.Output<string>;
  declare readonly period: pulumi.Output<"monthly" | "quarterly" | "annual">;
  /** null for an organization-wide budget. */
  declare readonly groupId: pulumi.Output<string | null>;
  /** Sorted by basis, then percent. */
  declare readonly thresholds: pulumi.Output<ThresholdArgs[]>;
  /** Lower-cased and sorted. */
  declare readonly recipients: pulumi.Output<string[]>;
  /** Secret output. */
  declare readonly webhookUrl: pulumi.Output<string | null>;
  declare readonly enabled: pulumi.Output<boolean>;
  /** null when the alert counts all spend of its scope. */
  declare readonly filters: pulumi.Output<CostFiltersOutput | null>;
  /** Sorted by `periodStart`. */
  declare readonly plannedAmounts: pulumi.Output<PlannedAmountArgs[]>;
  declare readonly autoAdjust: pulumi.Output<AutoAdjustArgs | null>;
  declare readonly startDate: pulumi.Output<string | null>;
  declare readonly endDate: pulumi.Output<string | null>;
  /** The budget of the current period: its planned amount, the history mean (`autoAdjust`) or `amount`. Computed by the service. */
  declare readonly effectiveAmount: pulumi.Output<number>;
  /** Where `effectiveAmount` came from. */
  declare readonly effectiveAmountSource: pulumi.Output<"amount" | "planned" | "autoAdjust">;
  /** Enabled and today within `startDate`…`endDate`: the alert evaluates and fires. */
  declare readonly active: pulumi.Output<boolean>;
  /** Spend of the alert's scope in the current period so far, in `spendCurrency`. */
  declare readonly currentSpend: pulumi.Output<number>;
  /** Forecast spend of the scope for the whole current period, in `spendCurrency`. */
  declare readonly forecastedSpend: pulumi.Output<number>;
  /** The organization's billing currency. */
  declare readonly spendCurrency: pulumi.Output<string>;
  declare readonly periodStart: pulumi.Output<string>;
  declare readonly periodEnd: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: BudgetAlertArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = inputsOf(args, [
      "name",
      "amount",
      "currency",
      "period",
      "groupId",
      "thresholds",
      "recipients",
      "enabled",
      "filters",
      "plannedAmounts",
      "autoAdjust",
      "startDate",
      "endDate",
      "adoptId",
    ]);
    // Wrapped so the input copy in state is encrypted too, not only the output.
    inputs["webhookUrl"] = args.webhookUrl === undefined ? undefined : pulumi.secret(args.webhookUrl);
    const outputs = [
      "effectiveAmount",
      "effectiveAmountSource",
      "active",
      "currentSpend",
      "forecastedSpend",
      "spendCurrency",
      "periodStart",
      "periodEnd",
      "createdAt",
      "updatedAt",
    ];
    super(name, inputs, outputs, { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "webhookUrl"] });
  }
}
