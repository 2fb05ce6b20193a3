/**
 * The quickstart in CDK for Terraform (TypeScript): a Cloud Group, its monthly budget and a weekly report,
 * through bindings `cdktf get` generates from terraform-provider-cloudcost's schema (into .gen/, not committed).
 * `cdktf synth` writes cdktf.out/stacks/quickstart/cdk.tf.json, which `tofu` plans, applies and destroys.
 *
 * CDK for Terraform is deprecated upstream (2025-12-10; 0.21.0 is its final release): for new work, write HCL
 * (examples/quickstart-terraform is this program in HCL).
 */
import { App, TerraformOutput, TerraformStack, TerraformVariable } from "cdktf";
import type { Construct } from "constructs";
import { BudgetAlert } from "./.gen/providers/cloudcost/budget-alert";
import { CloudGroup } from "./.gen/providers/cloudcost/cloud-group";
import { CloudcostProvider } from "./.gen/providers/cloudcost/provider";
import { ScheduledReport } from "./.gen/providers/cloudcost/scheduled-report";

class Quickstart extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Settings from the environment (CLOUDCOST_API_URL, CLOUDCOST_API_TOKEN): never in the synthesized JSON.
    new CloudcostProvider(this, "cloudcost", {});

    const owner = new TerraformVariable(this, "owner", {
      type: "string",
      default: "finops@example.com",
      description: "who receives the alert e-mails and the weekly report",
    });

    const webShop = new CloudGroup(this, "web_shop", {
      name: "Web shop",
      description: "Production accounts of the web shop",
      awsAccountIds: ["111122223333"],
      azureSubscriptionIds: ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"],
    });

    const budget = new BudgetAlert(this, "web_shop_monthly", {
      name: "Web shop monthly budget",
      groupId: webShop.id,
      amount: 5000,
      currency: "USD",
      period: "monthly",
      thresholds: [
        { percent: 80, basis: "forecast" },
        { percent: 100, basis: "actual" },
      ],
      recipients: [owner.stringValue],
    });

    const weekly = new ScheduledReport(this, "web_shop_weekly", {
      name: "Web shop weekly cost by service",
      report: "services",
      groupId: webShop.id,
      schedule: { frequency: "weekly", dayOfWeek: "monday", time: "08:00", timezone: "Europe/Berlin" },
      format: "csv",
      recipients: [owner.stringValue],
    });

    new TerraformOutput(this, "group_id", { value: webShop.id });
    new TerraformOutput(this, "alert_id", { value: budget.id });
    new TerraformOutput(this, "report_id", { value: weekly.id });
    new TerraformOutput(this, "spend_this_month", { value: budget.currentSpend });
  }
}

const app = new App();
new Quickstart(app, "quickstart");
app.synth();
