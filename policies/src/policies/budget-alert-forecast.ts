import { BudgetAlert } from "@cloudcost/pulumi";
import { ApiError, periodContaining, type CostForecast, z } from "@cloudcost/api";
import type { ReportViolation, ResourceValidationArgs } from "@pulumi/policy";
import { validateResourceOfKind } from "../resource-types";
import { readConfig, toConfigSchema } from "../config/schema";
import { AlertView, readAlert } from "../inputs/budget-alert";
import { UNKNOWN } from "../inputs/raw";
import { formatMoney } from "../rules/monthly-amount";
import { resolveApiSettings } from "../forecast/api-settings";
import { ForecastSource } from "../forecast/forecast-source";
import { composable } from "../compose";

const NAME = "budget-alert-forecast";

export const ForecastConfig = z.object({
  apiUrl: z.string().url().optional().describe("{base_url} of the API, ending in /api/v1; default: CLOUDCOST_API_URL."),
  authUrl: z.string().url().optional().describe("Origin of the OAuth endpoints; default: CLOUDCOST_AUTH_URL, else the origin of apiUrl."),
  apiToken: z
    .string()
    .min(1)
    .optional()
    .describe("API token; prefer the CLOUDCOST_API_TOKEN environment variable (this file is not secret)."),
  clientId: z.string().min(1).optional().describe("OAuth client ID; default: CLOUDCOST_CLIENT_ID."),
  clientSecret: z.string().min(1).optional().describe("OAuth client secret; prefer the CLOUDCOST_CLIENT_SECRET environment variable."),
  farAboveFactor: z
    .number()
    .gt(1)
    .max(1000)
    .default(3)
    .describe("Warn when the budget is more than this many times the forecast: it would never fire."),
  timeoutMs: z.number().int().min(100).max(60_000).default(5_000).describe("Bound on each API request, in milliseconds."),
});
export type ForecastConfig = z.output<typeof ForecastConfig>;

/**
 * Compares a budget with the service's forecast for the same scope and period (pure: unit-tested).
 * Below the forecast: a forecast threshold at 100% fires at once. Far above: no threshold ever fires.
 */
export function compareWithForecast(
  amount: number,
  currency: string,
  forecast: CostForecast,
  config: Pick<ForecastConfig, "farAboveFactor">,
): string[] {
  const window = `${forecast.from}..${forecast.to}`;
  const fc = (n: number) => formatMoney(n, currency);
  if (amount < forecast.total) {
    const already = forecast.actual >= amount ? `; spend so far (${fc(forecast.actual)}) already exceeds it` : "";
    return [
      `the budget ${fc(amount)} is below the ${fc(forecast.total)} the service forecasts for ${window}${already}: the alert would fire at once; raise amount to at least ${fc(Math.ceil(forecast.total))} or reduce spend`,
    ];
  }
  if (amount > forecast.total * config.farAboveFactor) {
    return [
      `the budget ${fc(amount)} is more than ${config.farAboveFactor} times the ${fc(forecast.total)} the service forecasts for ${window}: the alert would never fire; lower amount towards ${fc(Math.ceil(forecast.total * 1.2))}`,
    ];
  }
  return [];
}

/** Problems reaching the API are reported as advisory whatever the policy's level: they never fail a run. */
function reportAdvisory(reportViolation: ReportViolation, message: string): void {
  // @pulumi/policy accepts a diagnostic object here (server.ts makeReportViolationFun); its type admits only strings.
  (reportViolation as unknown as (d: { message: string; enforcementLevel: "advisory" }) => void)({ message, enforcementLevel: "advisory" });
}

function unreachable(error: unknown, baseUrl: string): string {
  const why =
    error instanceof ApiError ? (error.status === 0 ? `could not be reached (${error.message})` : `answered ${error.message}`) : "failed";
  return `the forecast check was skipped: the Cloud Cost API at ${baseUrl} ${why}`;
}

const source = new ForecastSource();

/** The current period's budget as declared: its planned amount if one names the period (issue 27), else `amount`. */
export function currentAmount(alert: AlertView, periodStart: string): number | typeof UNKNOWN {
  if (alert.plannedAmounts === UNKNOWN) return UNKNOWN;
  const planned = alert.plannedAmounts.find((p) => p !== UNKNOWN && p.periodStart === periodStart);
  if (planned !== undefined && planned !== UNKNOWN) return planned.amount;
  if (alert.plannedAmounts.some((p) => p === UNKNOWN)) return UNKNOWN;
  return alert.amount;
}

async function validate(alert: AlertView, args: ResourceValidationArgs, reportViolation: ReportViolation): Promise<void> {
  const config = readConfig(args, ForecastConfig, NAME);
  const { currency, period, groupId, filters } = alert;
  if (currency === UNKNOWN || period === UNKNOWN) args.notApplicable("currency or period is not known yet");
  if (groupId === UNKNOWN) args.notApplicable("the alert's Cloud Group is not known yet (it is created in this deployment)");
  // Issue 27: the service sets an autoAdjust alert's amount from history, so only the service knows it.
  if (alert.autoAdjust !== null) args.notApplicable("the amount is set from history (autoAdjust): only the service knows it");
  if (filters === UNKNOWN || filters.value === UNKNOWN) args.notApplicable("the alert's filters are not known yet");
  const window = periodContaining(period, new Date());
  const amount = currentAmount(alert, window.from);
  if (amount === UNKNOWN) args.notApplicable("the amount of the current period is not known yet");
  const settings = resolveApiSettings(config, process.env);
  if ("reason" in settings) args.notApplicable(settings.reason);
  let forecast: CostForecast;
  try {
    forecast = await source.forecast(settings.options, groupId, window, Date.now(), filters.value);
  } catch (error) {
    reportAdvisory(reportViolation, unreachable(error, settings.options.baseUrl));
    return;
  }
  if (forecast.currency !== currency)
    args.notApplicable(`the budget is in ${currency} but the service reports spend in ${forecast.currency}`);
  for (const message of compareWithForecast(amount, currency, forecast, config)) reportViolation(message);
}

export const budgetAlertForecast = composable(
  {
    name: NAME,
    description:
      "A budget (this period's planned amount, if any) is compared with the service's own forecast for its scope, filters and period: below the forecast it fires at once, far above it never fires.",
    enforcementLevel: "advisory",
    configSchema: toConfigSchema(ForecastConfig),
    validateResource: validateResourceOfKind(BudgetAlert, (props, args, reportViolation) =>
      validate(readAlert(props), args, reportViolation),
    ),
  },
  ForecastConfig,
);
