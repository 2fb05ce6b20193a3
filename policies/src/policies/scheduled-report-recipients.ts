import { ScheduledReport } from "@cloudcost/pulumi";
import { z } from "@cloudcost/api";
import { allowedEmailDomains } from "../config/fields";
import { UNKNOWN } from "../inputs/raw";
import { ReportView, readReport } from "../inputs/scheduled-report";
import { disallowedRecipientMessages } from "../rules/email-domain";
import { resourcePolicy } from "./define";
import { composable } from "../compose";

export const ReportRecipientsConfig = z.object({ allowedEmailDomains: allowedEmailDomains() });
export type ReportRecipientsConfig = z.output<typeof ReportRecipientsConfig>;

export function checkReportRecipients(report: ReportView, config: ReportRecipientsConfig): string[] {
  return report.recipients === UNKNOWN ? [] : disallowedRecipientMessages(report.recipients, config.allowedEmailDomains);
}

export const scheduledReportRecipients = composable(
  resourcePolicy(ScheduledReport, {
    name: "scheduled-report-recipients",
    description: "Every recipient of a scheduled report is in an allowed e-mail domain.",
    enforcementLevel: "mandatory",
    config: ReportRecipientsConfig,
    read: readReport,
    check: checkReportRecipients,
  }),
  ReportRecipientsConfig,
);
