import { GIVEN_BACK } from "../runtime/given-back";
import type { Recovery } from "./pending";
import type { StackExport, StateResource } from "./stack-state";

/**
 * Why this is a state edit and not `pulumi refresh --import-pending-creates URN ID`: that flag only rewrites
 * the pending create into a pending *import* (pkg/cmd/pulumi/operations/refresh.go `pendingCreatesToImports`),
 * and no step of the refresh reads pending operations — the snapshot it writes carries over only the base's
 * pending *creates* (pkg/backend/journal.go, "Track pending create operations from the base snapshot"), so the
 * import is dropped and the object stays outside the state (pinned v3.274.1). Issue 33 saw the consequence:
 * after an interrupted replace the next `up` updated the old object in place beside the new one.
 *
 * So each pending create whose object was found is written into the state as the engine would have recorded
 * the create's success (pkg/engine/journal_snapshot.go, createSnapshotMutation.End):
 * - a plain create: the resource, after everything it refers to;
 * - a create-before-delete replacement (the URN still holds the old object, live): the old one is marked
 *   `delete: true` — the next `pulumi up` deletes it — and the new one follows it;
 * - a delete-before-replace replacement (the old one is `pendingReplacement`: already deleted): the new one
 *   takes its place.
 * The outputs start as the inputs (what the provider's Read needs: `__provider`, the create key); the refresh
 * that follows reads the object and fills them in. Each carries the mark of a create given its object back
 * (runtime/given-back.ts): the resource written here holds the object now — a retry of its create may have been
 * answered with it before the interruption — so its own delete must go ahead.
 */
export interface FinishedCreates {
  state: StackExport;
  /** Old objects of create-before-delete replacements, now marked for deletion by the next `pulumi up`. */
  replaced: { urn: string; id: string }[];
}

/** The URN a provider reference (`<URN>::<id>`) names. */
const providerUrn = (ref: string) => ref.slice(0, ref.lastIndexOf("::"));

export function finishCreates(state: StackExport, recovery: Recovery): FinishedCreates {
  const found = new Map(recovery.found.map((f) => [f.urn, f.id]));
  const resources: StateResource[] = (state.deployment.resources ?? []).map((r) => ({ ...r }));
  const replaced: { urn: string; id: string }[] = [];
  for (const { resource, type } of state.deployment.pending_operations ?? []) {
    const id = found.get(resource.urn);
    if (type !== "creating" || id === undefined) continue;
    found.delete(resource.urn);
    const made: StateResource = { ...resource, id, outputs: { ...resource.inputs, ...resource.outputs, [GIVEN_BACK]: true } };
    let at = resources.length;
    const old = resources.findIndex((r) => r.urn === resource.urn && r.delete !== true);
    if (old >= 0 && resources[old]!.pendingReplacement === true) {
      resources.splice(old, 1);
      at = old;
    } else if (old >= 0) {
      resources[old] = { ...resources[old]!, delete: true };
      replaced.push({ urn: resource.urn, id: resources[old]!.id ?? "" });
      at = old + 1;
    }
    // After its parent, its provider and its dependencies, wherever they are.
    const refersTo = new Set([resource.parent, resource.provider && providerUrn(resource.provider), ...(resource.dependencies ?? [])]);
    resources.forEach((r, i) => {
      if (refersTo.has(r.urn) && i >= at) at = i + 1;
    });
    resources.splice(at, 0, made);
  }
  // `pulumi stack import` drops every pending operation anyway (pkg/cmd/pulumi/stack/io.go, "Explicitly clear-out
  // any pending operations"): ./pending-command writes this state only when none is another provider's create.
  return { state: { ...state, deployment: { ...state.deployment, resources, pending_operations: [] } }, replaced };
}
