import { IdempotencyKey, PageQuery, Timestamp, page } from "./common";
import { z } from "./zod";

/**
 * What the service remembers of a request sent with an `Idempotency-Key` (contract decision, see
 * README "Idempotency-Key"): kept 24 hours, and forgotten as soon as the object the request created is
 * deleted — so a create repeated after its object is gone makes a new object instead of answering with a
 * deleted one. A client that lost the answer to a create (a killed `pulumi up`) finds the object here.
 */
export const IdempotencyRecord = z
  .object({
    key: IdempotencyKey,
    status: z.number().int().min(200).max(299).openapi({ description: "the status of the first response (only successes are kept)" }),
    resourceId: z
      .string()
      .nullable()
      .openapi({ description: "the ID of the object the request created, while it exists; null for a request that created none (a scan)" }),
    createdAt: Timestamp,
    expiresAt: Timestamp.openapi({ description: "when the key is forgotten: 24 hours after the first request" }),
    replayedAt: Timestamp.nullable().openapi({
      description:
        "when the first response was last given again to a request with this key (`Idempotent-Replayed: true`); null when never. " +
        "A tool deleting the object its create made can tell whether a later create with the same key was given that object " +
        "(a retry, or a replacement with unchanged inputs) and now holds it.",
    }),
  })
  .openapi("IdempotencyRecord");
export type IdempotencyRecord = z.infer<typeof IdempotencyRecord>;

export const IdempotencyRecordPage = page(IdempotencyRecord, "IdempotencyRecordPage");

export const IdempotencyRecordQuery = PageQuery.extend({
  prefix: IdempotencyKey.optional().openapi({
    description: "only keys that begin with this text (a tool that derives its keys from a common prefix finds its own)",
  }),
})
  .strict()
  .openapi("IdempotencyRecordQuery");
export type IdempotencyRecordQuery = z.infer<typeof IdempotencyRecordQuery>;
