import { AlertId } from "./budget-alert";
import { CreateGroup, GroupId, GroupName, ReplaceMembers } from "./cloud-group";
import { ReportId } from "./scheduled-report";
import { z } from "./zod";

/*
 * Issue 38: the service's own rules at plan time. A rule that needs the organization (an account not in the
 * group, a group name already taken, no account of that provider, an unknown service …) cannot be judged
 * by a schema, so until now a plan passed and the apply failed. Each writable kind has one `validate…`
 * operation: the same request body as its create or replace, run through the very handlers the real request
 * runs, inside a transaction that is always rolled back — so it answers exactly the 404/409/422 the real
 * request would (same codes, messages and field paths) and writes nothing: no row, no `Idempotency-Key`
 * record, no event. Success is 204 (there is nothing to return: an id would name an object that is never made).
 *
 * Why an operation and not a `dryRun` parameter on create/replace/patch: a Cloud Group is two requests at
 * apply (create or rename, then the member set), and a new group's members cannot be dry-run against a
 * group that does not exist yet — one operation takes the whole desired group, so a plan costs one request
 * per resource; and a parameter that turns a write into a read would make every write route's success
 * status, idempotency and rate-limit class depend on a flag (Kubernetes' `?dryRun=All` has to document each
 * of those). Scope `read`: it changes nothing and tells nothing a read could not, so a read-only plan token
 * gets the checks too.
 */

const DRAFT_OF = "the object this draft would change; left out, the draft is judged as a create";

/**
 * A whole Cloud Group as a plan knows it: its create (or rename) and its member set in one body. `members` is
 * left out when a change leaves them as they are: apply then sends no member set, so none is judged.
 */
export const GroupDraft = CreateGroup.extend({
  members: ReplaceMembers.shape.members.optional().openapi({
    description: "the member set to set; left out, the members are not changed (and not judged)",
  }),
})
  .strict()
  .openapi("GroupDraft", {
    description:
      "A Cloud Group as it should be: `name` and `description` as for `POST /groups` (or `PATCH` of an existing one), `members` as for `PUT /groups/{groupId}/members` (field paths in problems are those of the same requests)",
  });
export type GroupDraft = z.input<typeof GroupDraft>;

/**
 * The group a group draft changes: by id, or by the name it has now (names are unique in the organization,
 * case-insensitively) for a caller that knows its old inputs but not its id (Pulumi's Check).
 */
export const GroupDraftQuery = z
  .object({
    groupId: GroupId.optional().openapi({ description: DRAFT_OF }),
    currentName: GroupName.optional().openapi({
      description:
        "the name the group has now, for a caller that knows the group's old inputs but not its id; not together with `groupId`. Both left out, the draft is judged as a create",
    }),
  })
  .strict()
  .refine((q) => q.groupId === undefined || q.currentName === undefined, {
    message: "give groupId or currentName, not both",
    path: ["currentName"],
  });
export type GroupDraftQuery = z.input<typeof GroupDraftQuery>;

export const AlertDraftQuery = z.object({ alertId: AlertId.optional().openapi({ description: DRAFT_OF }) }).strict();
export type AlertDraftQuery = z.input<typeof AlertDraftQuery>;
export const ReportDraftQuery = z.object({ reportId: ReportId.optional().openapi({ description: DRAFT_OF }) }).strict();
export type ReportDraftQuery = z.input<typeof ReportDraftQuery>;

/** The description every `validate…` operation carries in the document. */
export const DRY_RUN_DESCRIPTION =
  "Dry-run: judges the body as the create (or, with the object's id, the change) would — the same handlers, then rolled back — and answers 204 when it would be accepted, or exactly the 400/404/409/422 problem the real request would get (same `code`, `message` and field `path`). Writes nothing: no object, no `Idempotency-Key` record, no event; it counts once against the rate limit like any request. Infrastructure-as-code tools call it at plan time, only for objects being created or changed.";
