// First: unsupported Pulumi SDKs stop the pack before it starts.
import "./supported-sdk";
import { PolicyPack } from "@pulumi/policy";
import { defaultPolicies } from "./policies";

/** The pack the Pulumi CLI runs (`--policy-pack policies`): it starts the Analyzer gRPC server. */
new PolicyPack("cloudcost-budgets", {
  description: "Stops bad budgets, alerts, reports and Cloud Groups of the Cloud Cost Management API before deployment.",
  policies: defaultPolicies(),
});
