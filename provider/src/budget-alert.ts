import * as pulumi from "@pulumi/pulumi";
import { cloudCostResource, inputsOf } from "./resource-class";
import provider = require("./providers/budget-alert");

/** One alert threshold: a percent of the budget amount and whether actual or forecast spend must reach it. */
export interface ThresholdArgs {
  percent: number;
  basis: "actual" | "forecast";
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
    const inputs = inputsOf(args, ["name", "amount", "currency", "period", "groupId", "thresholds", "recipients", "enabled", "adoptId"]);
    // Wrapped so the input copy in state is encrypted too, not only the output.
    inputs["webhookUrl"] = args.webhookUrl === undefined ? undefined : pulumi.secret(args.webhookUrl);
    const outputs = ["currentSpend", "forecastedSpend", "spendCurrency", "periodStart", "periodEnd", "createdAt", "updatedAt"];
    super(name, inputs, outputs, { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "webhookUrl"] });
  }
}
