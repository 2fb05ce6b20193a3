import { ResourceId, Timestamp, page } from "./common";
import { z } from "./zod";

export const RunId = ResourceId("run").openapi("RunId", { example: "run_01j9z6w3k2m4n5p6q7r8" });

/** A run moves queued → running → succeeded | failed; the last two are final. */
export const ScanState = z.enum(["queued", "running", "succeeded", "failed"]).openapi("ScanState");
export type ScanState = z.infer<typeof ScanState>;

export const ScanResult = z
  .object({
    accountsScanned: z.number().int(),
    findingsFound: z.number().int().openapi({ description: "open findings after the scan" }),
    newFindings: z.number().int().openapi({ description: "findings this run added" }),
  })
  .openapi("ScanResult");

export const ScanRun = z
  .object({
    runId: RunId,
    state: ScanState,
    createdAt: Timestamp,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
    result: ScanResult.nullable().openapi({ description: "set once the run succeeded" }),
    error: z.object({ code: z.string(), message: z.string() }).nullable().openapi({ description: "set once the run failed" }),
  })
  .openapi("ScanRun");
export type ScanRun = z.infer<typeof ScanRun>;
export const ScanRunPage = page(ScanRun, "ScanRunPage");
