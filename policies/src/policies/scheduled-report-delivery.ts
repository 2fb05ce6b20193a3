import { ScheduledReport } from "@cloudcost/pulumi";
import { Frequency, ReportFormat, z } from "@cloudcost/api";
import { UNKNOWN } from "../inputs/raw";
import { ReportView, readReport } from "../inputs/scheduled-report";
import { resourcePolicy } from "./define";
import { composable } from "../compose";

export const DeliveryConfig = z.object({
  allowedFrequencies: z
    .array(Frequency)
    .min(1)
    .default([...Frequency.options])
    .describe("Schedule frequencies reports may use."),
  allowedFormats: z
    .array(ReportFormat)
    .min(1)
    .default([...ReportFormat.options])
    .describe("File formats reports may use (default format: csv)."),
});
export type DeliveryConfig = z.output<typeof DeliveryConfig>;

export function checkDelivery(report: ReportView, config: DeliveryConfig): string[] {
  const messages: string[] = [];
  if (report.frequency !== UNKNOWN && !config.allowedFrequencies.includes(report.frequency)) {
    messages.push(`schedule.frequency "${report.frequency}" is not allowed: use ${config.allowedFrequencies.join(" or ")}`);
  }
  if (report.format !== UNKNOWN && !config.allowedFormats.includes(report.format)) {
    messages.push(`format "${report.format}" is not allowed: set format to ${config.allowedFormats.join(" or ")}`);
  }
  return messages;
}

export const scheduledReportDelivery = composable(
  resourcePolicy(ScheduledReport, {
    name: "scheduled-report-delivery",
    description: "A scheduled report uses an allowed frequency and an allowed file format.",
    enforcementLevel: "mandatory",
    config: DeliveryConfig,
    read: readReport,
    check: checkDelivery,
  }),
  DeliveryConfig,
);
