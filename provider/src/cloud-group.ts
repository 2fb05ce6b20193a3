import * as pulumi from "@pulumi/pulumi";
import { cloudCostResource, inputsOf } from "./resource-class";
import provider = require("./providers/cloud-group");

/** Inputs of a {@link CloudGroup}. */
export interface CloudGroupArgs {
  /** Unique within the organization (case-insensitively), 1–100 characters; surrounding blanks are trimmed. */
  name: pulumi.Input<string>;
  /** Up to 500 characters; default "". */
  description?: pulumi.Input<string>;
  /** Member Azure subscriptions (GUIDs, compared case-insensitively); a set: order and duplicates do not matter. */
  azureSubscriptionIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Member AWS accounts (12 digits); a set. */
  awsAccountIds?: pulumi.Input<pulumi.Input<string>[]>;
  /** Take over this existing group (e.g. made in the portal) instead of creating one; see README "Adoption". */
  adoptId?: pulumi.Input<string>;
}

/** A Cloud Group: a named set of cloud accounts, managed through `/groups` and its membership endpoints. */
export class CloudGroup extends cloudCostResource("CloudGroup", provider) {
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  /** Lower-cased and sorted. */
  declare readonly azureSubscriptionIds: pulumi.Output<string[]>;
  /** Sorted. */
  declare readonly awsAccountIds: pulumi.Output<string[]>;
  /** `api` or `portal`: where the group was first created. */
  declare readonly source: pulumi.Output<"api" | "portal">;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;

  constructor(name: string, args: CloudGroupArgs, opts?: pulumi.CustomResourceOptions) {
    const inputs = inputsOf(args, ["name", "description", "azureSubscriptionIds", "awsAccountIds", "adoptId"]);
    // The name is unique in the organization, so a replacement deletes the old group first. For
    // `--target-replace` the engine never calls Diff (pulumi step_generator.go `diff`: a targeted replace
    // returns a replace blaming "id"), so only this resource option can ask for it; set it to false to opt out.
    super(name, inputs, ["source", "createdAt", "updatedAt"], { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true });
  }
}
