import { BudgetAlert, type BudgetAlertArgs } from "@cloudcost/pulumi";
import { MAX_THRESHOLDS, ThresholdBasis, z } from "@cloudcost/api";
import { Secret } from "@pulumi/policy";
import { remediateResourceOfKind } from "../resource-types";
import { readConfig } from "../config/schema";
import { AlertThreshold, AlertView, readAlert } from "../inputs/budget-alert";
import { Maybe, UNKNOWN, knownElements } from "../inputs/raw";
import { resourcePolicy } from "./define";
import { objectExample } from "../rules/code-example";
import { composable } from "../compose";

const NAME = "budget-alert-thresholds";
const THRESHOLDS_KEY: keyof BudgetAlertArgs = "thresholds";

/** A threshold the configuration requires: a percent of the amount and a basis. */
const RequiredThreshold = z.object({ percent: z.number().gt(0).max(1000), basis: ThresholdBasis }).strict();
type RequiredThreshold = z.output<typeof RequiredThreshold>;

export const ThresholdsConfig = z.object({
  requiredThresholds: z
    .array(RequiredThreshold)
    .max(MAX_THRESHOLDS)
    .default([{ percent: 100, basis: "actual" }])
    .describe("Thresholds every alert must have (same percent and basis)."),
  minForecastThresholds: z
    .number()
    .int()
    .min(0)
    .max(MAX_THRESHOLDS)
    .default(1)
    .describe('Fewest thresholds with basis "forecast" an alert must have.'),
  remediationForecastPercents: z
    .array(z.number().gt(0).max(1000))
    .min(1)
    .max(MAX_THRESHOLDS)
    .default([100])
    .describe("Percents of the forecast thresholds the remediation adds, in order, until minForecastThresholds is met."),
});
export type ThresholdsConfig = z.output<typeof ThresholdsConfig>;

/**
 * A declared threshold meets a required one when the basis agrees and so does the level: the same percent,
 * or (issue 27) an absolute amount equal to that percent of the alert's amount, to the cent.
 */
function meets(t: AlertThreshold, r: RequiredThreshold, amount: Maybe<number>): boolean {
  if (t.basis !== r.basis) return false;
  if (t.percent !== undefined) return t.percent === r.percent;
  return amount !== UNKNOWN && t.amount !== undefined && Math.round(t.amount * 100) === Math.round(amount * r.percent);
}
const show = (t: RequiredThreshold) => objectExample({ percent: t.percent, basis: t.basis });

/** Only a fully known list can be missing something: an unknown element might be the required one. */
function knownList(alert: AlertView): AlertThreshold[] | undefined {
  if (alert.thresholds === UNKNOWN) return undefined;
  const known = knownElements(alert.thresholds);
  return known.length === alert.thresholds.length ? known : undefined;
}

export function checkThresholds(alert: AlertView, config: ThresholdsConfig): string[] {
  const list = knownList(alert);
  if (!list) return [];
  const messages = config.requiredThresholds
    .filter((r) => !list.some((t) => meets(t, r, alert.amount)))
    .map((r) => `the required threshold ${show(r)} is missing: add it to thresholds`);
  const forecasts = list.filter((t) => t.basis === "forecast").length;
  if (forecasts < config.minForecastThresholds) {
    messages.push(
      `the alert has ${forecasts} forecast threshold(s) but needs at least ${config.minForecastThresholds}: add e.g. ${objectExample({ percent: 100, basis: "forecast" })} to thresholds, so it warns before the budget is spent`,
    );
  }
  return messages;
}

/** The thresholds after adding what is missing, or undefined when nothing is missing or it cannot be decided. */
export function remediatedThresholds(alert: AlertView, config: ThresholdsConfig): AlertThreshold[] | undefined {
  const list = knownList(alert);
  if (!list) return undefined;
  const result: AlertThreshold[] = [...list];
  const add = (t: RequiredThreshold) => {
    if (result.length < MAX_THRESHOLDS && !result.some((x) => meets(x, t, alert.amount))) result.push(t);
  };
  config.requiredThresholds.forEach(add);
  for (const percent of config.remediationForecastPercents) {
    if (result.filter((t) => t.basis === "forecast").length >= config.minForecastThresholds) break;
    add({ percent, basis: "forecast" });
  }
  return result.length === list.length ? undefined : result;
}

/**
 * The declared inputs with the new thresholds. Values are copied as sent (read past the proxies), so
 * secrets stay `Secret` wrappers and unknown values stay unknown when the engine receives them back.
 */
export function withThresholds(props: object, thresholds: AlertThreshold[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(props)) copy[key] = Reflect.getOwnPropertyDescriptor(props, key)?.value;
  const wasSecret = copy[THRESHOLDS_KEY] instanceof Secret;
  copy[THRESHOLDS_KEY] = wasSecret ? new Secret(thresholds) : thresholds;
  return copy;
}

/**
 * Validates, and with enforcement level "remediate" first adds the missing thresholds (the remediation
 * variant): Remediate runs before Analyze, so a remediated alert then passes.
 */
export const budgetAlertThresholds = composable(
  {
    ...resourcePolicy(BudgetAlert, {
      name: NAME,
      description:
        "A budget alert has the required thresholds: by default an actual threshold at 100% and at least one forecast threshold.",
      enforcementLevel: "mandatory",
      config: ThresholdsConfig,
      read: readAlert,
      check: checkThresholds,
    }),
    remediateResource: remediateResourceOfKind(BudgetAlert, (props, args) => {
      const thresholds = remediatedThresholds(readAlert(props), readConfig(args, ThresholdsConfig, NAME));
      return thresholds ? withThresholds(props, thresholds) : undefined;
    }),
  },
  ThresholdsConfig,
);
