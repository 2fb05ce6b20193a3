// First (through the library): unsupported Pulumi SDKs stop the pack before it starts.
import { PolicyPack } from "@pulumi/policy";
import { PACK_NAME, defaultPolicies } from "./library";

/** The pack the Pulumi CLI runs (`--policy-pack policies`, package.json `main`): it starts the Analyzer gRPC server. */
new PolicyPack(PACK_NAME, {
  description: "Stops bad budgets, alerts, reports and Cloud Groups of the Cloud Cost Management API before deployment.",
  policies: defaultPolicies(),
});
