import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { readGroup } from "../../../policies/src/inputs/cloud-group";
import { readReport } from "../../../policies/src/inputs/scheduled-report";
import { MembersConfig, checkMembers } from "../../../policies/src/policies/cloud-group-members";
import { DeliveryConfig, checkDelivery } from "../../../policies/src/policies/scheduled-report-delivery";
import { ReportRecipientsConfig, checkReportRecipients } from "../../../policies/src/policies/scheduled-report-recipients";

const report = (props: Record<string, unknown>) =>
  readReport({
    name: "r",
    report: "summary",
    schedule: { frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "UTC" },
    recipients: ["a@example.com"],
    ...props,
  });
const AZ = "0B1F6471-1BF0-4DDA-AEC3-CB9272F09590";

describe("scheduled-report-recipients", () => {
  test("every recipient must be in an allowed domain", () => {
    const config = ReportRecipientsConfig.parse({ allowedEmailDomains: ["example.com"] });
    expect(checkReportRecipients(report({}), config)).toEqual([]);
    expect(checkReportRecipients(report({ recipients: ["a@example.com", "b@other.org"] }), config)).toEqual([
      'recipients[1] uses the domain "other.org", which is not allowed: use an address in example.com',
    ]);
    expect(checkReportRecipients(report({ recipients: unknownValue }), config)).toEqual([]);
  });
});

describe("scheduled-report-delivery", () => {
  const config = DeliveryConfig.parse({ allowedFrequencies: ["weekly", "monthly"], allowedFormats: ["pdf"] });
  test("frequency and format must be allowed; format defaults to csv", () => {
    expect(checkDelivery(report({ format: "pdf" }), config)).toEqual([]);
    expect(checkDelivery(report({}), config)).toEqual(['format "csv" is not allowed: set format to pdf']);
    expect(checkDelivery(report({ format: "pdf", schedule: { frequency: "daily", time: "08:00", timezone: "UTC" } }), config)).toEqual([
      'schedule.frequency "daily" is not allowed: use weekly or monthly',
    ]);
  });
  test("defaults allow everything; unknown values are not judged", () => {
    expect(checkDelivery(report({ schedule: { frequency: "daily", time: "08:00", timezone: "UTC" } }), DeliveryConfig.parse({}))).toEqual(
      [],
    );
    expect(checkDelivery(report({ schedule: unknownValue, format: unknownValue }), config)).toEqual([]);
  });
});

describe("cloud-group-members", () => {
  const defaults = MembersConfig.parse({});
  test("needs at least one member", () => {
    expect(checkMembers(readGroup({ name: "g" }), defaults)).toEqual([
      "the group has 0 member(s) but needs at least 1: add accounts to azureSubscriptionIds or awsAccountIds",
    ]);
    expect(checkMembers(readGroup({ name: "g", awsAccountIds: ["123456789012"] }), defaults)).toEqual([]);
    expect(checkMembers(readGroup({ name: "g", awsAccountIds: unknownValue }), defaults)).toEqual([]);
    expect(checkMembers(readGroup({ name: "g", awsAccountIds: [unknownValue] }), defaults)).toEqual([]);
  });
  test("reports each duplicate once; Azure IDs compare case-insensitively", () => {
    const group = readGroup({
      name: "g",
      azureSubscriptionIds: [AZ, AZ.toLowerCase()],
      awsAccountIds: ["123456789012", "123456789012", "123456789012", "210987654321"],
    });
    expect(checkMembers(group, defaults)).toEqual([
      `${AZ.toLowerCase()} is listed 2 times in azureSubscriptionIds (subscription IDs compare case-insensitively): list it once`,
      "123456789012 is listed 3 times in awsAccountIds: list it once",
    ]);
  });
});
