import junitReportBuilder from "junit-report-builder";
import type { Verdict } from "../verdict/verdict";
import { budgetLine, fullMessage, waiverText, where } from "./describe";

/*
 * JUnit XML (the Jenkins/Ant schema GitLab, Jenkins and Azure DevOps read), written by junit-report-builder:
 * one test case per resource × policy judged (class name: the resource; name: the policy), a failure per
 * violation (type: its level), a skipped case per waived finding with the waiver, and the budget delta as
 * the suite's properties.
 */
export function junit(v: Verdict): string {
  const builder = junitReportBuilder.newBuilder();
  const suite = builder
    .testSuite()
    .name(v.door === "terraform" ? "cloudcost-policies check-plan" : "cloudcost-policies check-preview")
    .property("budget", budgetLine(v.budget.total));
  const seen = new Set<string>();
  const cases = [...v.judged, ...v.violations, ...v.waived].filter((c) => {
    const key = `${c.address}\0${c.policy}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  for (const { address, policy } of cases) {
    const testCase = suite.testCase().className(address).name(policy);
    const violations = v.violations.filter((f) => f.address === address && f.policy === policy);
    const waived = v.waived.filter((f) => f.address === address && f.policy === policy);
    if (violations.length) {
      const level = violations.some((f) => f.enforcementLevel !== "advisory")
        ? violations.find((f) => f.enforcementLevel !== "advisory")!.enforcementLevel
        : "advisory";
      testCase.failure(violations.map((f) => `${where(f)}: ${fullMessage(f)}`).join("\n"), level);
    } else if (waived.length) {
      testCase.skipped().standardOutput(waived.map((f) => `waived: ${where(f)}: ${f.message} (${waiverText(f.waived!)})`).join("\n"));
    }
  }
  return builder.build();
}
