import { Money, Provider, Timestamp, page } from "./common";
import { z } from "./zod";

export const FindingKind = z.enum(["insight", "waste", "recommendation"]).openapi("FindingKind");
export type FindingKind = z.infer<typeof FindingKind>;
/** Findings are addressed by numeric-looking identifiers (spec: `<insight_id>`), unique across the three kinds. */
export const FindingId = z
  .string()
  .regex(/^\d{1,18}$/, "must be a numeric finding ID")
  .openapi("FindingId", { example: "100042" });

export const Finding = z
  .object({
    id: FindingId,
    kind: FindingKind,
    title: z.string(),
    description: z.string(),
    severity: z.enum(["low", "medium", "high"]),
    provider: Provider,
    accountId: z.string(),
    service: z.string(),
    estimatedMonthlySavings: Money.nullable().openapi({ description: "in the billing currency; null when not applicable" }),
    currency: z.string(),
    status: z.enum(["open", "acknowledged"]),
    detectedAt: Timestamp,
    acknowledgedAt: Timestamp.nullable(),
  })
  .openapi("Finding");
export type Finding = z.infer<typeof Finding>;
export const FindingPage = page(Finding, "FindingPage");

/** Acknowledging is idempotent: acknowledging again returns the first acknowledgement unchanged. */
export const Acknowledgement = z
  .object({ id: FindingId, kind: FindingKind, status: z.literal("acknowledged"), acknowledgedAt: Timestamp })
  .openapi("Acknowledgement");
export type Acknowledgement = z.infer<typeof Acknowledgement>;
