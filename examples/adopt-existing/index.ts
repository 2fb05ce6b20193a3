import * as pulumi from "@pulumi/pulumi";
import { BudgetAlert, CloudGroup } from "@cloudcost/pulumi";

const config = new pulumi.Config();
/**
 * ID of the group made in the portal (shown in the portal, or by `GET /api/v1/groups`). The sandbox's
 * demo organization starts with one: "Production".
 */
const portalGroupId = config.require("groupId");

// `pulumi import` cannot take over dynamic-provider resources (pulumi/pulumi#16175), so the provider
// offers `adoptId`: on create it reads the existing group and updates it to the inputs below instead
// of making a new one. From then on it is an ordinary managed resource: drift is found on refresh,
// changes here are applied on `up`.
const production = new CloudGroup(
  "production",
  {
    adoptId: portalGroupId,
    name: "Production",
    description: "Production workloads on both clouds; managed by Pulumi since adoption",
    // The portal group had the production AWS account and the web apps subscription; staging joins.
    awsAccountIds: ["111122223333", "444455556666"],
    azureSubscriptionIds: ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"],
  },
  // The group existed before this stack: `pulumi destroy` leaves it in the service.
  { retainOnDelete: true },
);

// Now that the group is managed, other resources can depend on it like on any other.
const budget = new BudgetAlert("production-monthly", {
  name: "Production monthly budget",
  groupId: production.id,
  amount: 12000,
  thresholds: [
    { percent: 90, basis: "forecast" },
    { percent: 100, basis: "actual" },
  ],
  recipients: ["platform@example.com"],
});

export const groupId = production.id;
/** Still "portal": adoption takes the object over, it does not recreate it. */
export const groupSource = production.source;
export const alertId = budget.id;
