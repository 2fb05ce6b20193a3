import * as pulumi from "@pulumi/pulumi";
import type { CostFiltersArgs, CostFiltersOutput } from "./cost-filters";
import { cloudCostResource, inputsOf } from "./resource-class";
import provider = require("./providers/scheduled-report");

/** Which read a report delivers: a cost read, or `budget_status` — every budget alert in scope against its actual and forecast spend. */
export type ReportKind = "summary" | "services" | "daily" | "forecast" | "comparison" | "budget_status";
export type DayOfWeek = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";

/** When a report runs. */
export interface ScheduleArgs {
  frequency: "daily" | "weekly" | "monthly";
  /** Required for (and only allowed with) weekly schedules. */
  dayOfWeek?: DayOfWeek;
  /** 1–31; required for (and only allowed with) monthly schedules; 29–31 fall on the last day of shorter months. */
  dayOfMonth?: number;
  /** Time of day, HH:MM (24-hour). */
  time: string;
  /** IANA time-zone name, e.g. "Europe/Berlin". */
  timezone: string;
}

/** The schedule as the service reports it: the day fields that do not apply are null. */
export interface ScheduleOutput {
  frequency: "daily" | "weekly" | "monthly";
  dayOfWeek: DayOfWeek | null;
  dayOfMonth: number | null;
  time: string;
  timezone: string;
}

/** Inputs of a {@link ScheduledReport}. */
export interface ScheduledReportArgs {
  /** 1–100 characters. */
  name: pulumi.Input<string>;
  /** Which cost read the report delivers. */
  report: pulumi.Input<ReportKind>;
  /** The Cloud Group the report covers; omit for the whole organization. */
  groupId?: pulumi.Input<string>;
  schedule: pulumi.Input<ScheduleArgs>;
  /** Default "csv". */
  format?: pulumi.Input<"csv" | "pdf">;
  /** At most 50 e-mail addresses (a set, compared case-insensitively); at least one unless `webhookUrl` is set. */
  recipients?: pulumi.Input<pulumi.Input<string>[]>;
  /** Default true. */
  enabled?: pulumi.Input<boolean>;
  /** Counts only the spend these filters match (with `groupId`, within the group); none for `budget_status`, where each alert's own filters apply. */
  filters?: pulumi.Input<CostFiltersArgs>;
  /** Receives every run as a signed `scheduled_report.delivered` event with the report's rows (a spend feed without thresholds); https (http only for localhost). Kept secret in state. */
  webhookUrl?: pulumi.Input<string>;
  /** Take over this existing report instead of creating one; see README "Adoption". */
  adoptId?: pulumi.Input<string>;
}

/** A scheduled report (`/reports`): a cost read delivered by e-mail on a schedule. */
export class ScheduledReport extends cloudCostResource("ScheduledReport", provider) {
  declare readonly name: pulumi.Output<string>;
  declare readonly report: pulumi.Output<ReportKind>;
  /** null for the whole organization. */
  declare readonly groupId: pulumi.Output<string | null>;
  declare readonly schedule: pulumi.Output<ScheduleOutput>;
  declare readonly format: pulumi.Output<"csv" | "pdf">;
  /** Lower-cased and sorted. */
  declare readonly recipients: pulumi.Output<string[]>;
  declare readonly enabled: pulumi.Output<boolean>;
  /** null when the report counts all spend of its scope. */
  declare readonly filters: pulumi.Output<CostFiltersOutput | null>;
  /** Secret output. */
  declare readonly webhookUrl: pulumi.Output<string | null>;
  /** Next delivery (UTC); null while disabled. */
  declare readonly nextRunAt: pulumi.Output<string | null>;
  /** Last delivery (UTC); null until the first. */
  declare readonly lastRunAt: pulumi.Output<string | null>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: ScheduledReportArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = inputsOf(args, ["name", "report", "groupId", "schedule", "format", "recipients", "enabled", "filters", "adoptId"]);
    // Wrapped so the input copy in state is encrypted too, not only the output (as BudgetAlert's webhook).
    inputs["webhookUrl"] = args.webhookUrl === undefined ? undefined : pulumi.secret(args.webhookUrl);
    const outputs = ["nextRunAt", "lastRunAt", "createdAt", "updatedAt"];
    super(name, inputs, outputs, { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "webhookUrl"] });
  }
}
