import type { ScheduleArgs, ScheduledReportArgs } from "@cloudcost/pulumi";
import { Frequency, ReportFormat, ReportInput, z } from "@cloudcost/api";
import { readEmail } from "./budget-alert";
import { FiltersView, readFilters } from "./cost-filters";
import { Maybe, UNKNOWN, isOneOf, optional, rawProperty, readList, readValue } from "./raw";

export type ReportFileFormat = z.infer<typeof ReportFormat>;

/** What the contract (and so the provider's check) uses when `format` is omitted. */
const DEFAULT_FORMAT = ReportInput.shape.format.parse(undefined);

/** A scheduled report's inputs as the policies judge them (format defaulted like the provider's check). */
export interface ReportView {
  frequency: Maybe<Frequency>;
  format: Maybe<ReportFileFormat>;
  recipients: Maybe<Maybe<string>[]>;
  filters: Maybe<FiltersView>;
}

const field = (props: object, key: keyof ScheduledReportArgs): unknown => rawProperty(props, key);

export function readReport(props: object): ReportView {
  const recipients = field(props, "recipients");
  return {
    frequency: readValue(scheduleField(field(props, "schedule"), "frequency"), isOneOf(Frequency.options)),
    format: optional(field(props, "format"), DEFAULT_FORMAT, isOneOf(ReportFormat.options)),
    recipients: recipients === undefined || recipients === null ? [] : readList(recipients, readEmail),
    filters: readFilters(field(props, "filters")),
  };
}

function scheduleField(schedule: unknown, key: keyof ScheduleArgs): unknown {
  return schedule !== null && typeof schedule === "object" ? rawProperty(schedule, key) : UNKNOWN;
}
