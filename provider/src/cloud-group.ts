import * as pulumi from "@pulumi/pulumi";
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
export class CloudGroup extends pulumi.dynamic.Resource {
  static readonly __pulumiType = "pulumi-nodejs:dynamic/cloudcost:CloudGroup";

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
    const props = {
      name: args.name,
      description: args.description,
      azureSubscriptionIds: args.azureSubscriptionIds,
      awsAccountIds: args.awsAccountIds,
      adoptId: args.adoptId,
      source: undefined,
      createdAt: undefined,
      updatedAt: undefined,
    };
    // The name is unique in the organization, so a replacement deletes the old group first. For
    // `--target-replace` the engine never calls Diff (pulumi step_generator.go `diff`: a targeted replace
    // returns a replace blaming "id"), so only this resource option can ask for it; set it to false to opt out.
    super(provider, name, props, { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true }, "cloudcost", "CloudGroup");
  }

  /** Read-only lookup of an existing group by id: its outputs are live, and Pulumi never changes or deletes it. */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): CloudGroup {
    // Every input left undefined: the engine calls Read only, which returns the live object.
    return new CloudGroup(name, {} as CloudGroupArgs, { ...opts, id });
  }

  static override isInstance(obj: unknown): obj is CloudGroup {
    return pulumi.Resource.isInstance(obj) && (obj as unknown as { __pulumiType: string }).__pulumiType === CloudGroup.__pulumiType;
  }
}
