import { z } from "@cloudcost/api";

/*
 * The part of `pulumi preview --json` that `check-preview` reads (the CLI's display.PreviewDigest, v3.274):
 * each step's operation and the resource's old and new state — type, inputs, dependencies and (when the
 * language SDK sends one) the source position of its registration. The digest carries no policy events
 * ("we don't handle policy events in JSON serialization", pkg/backend/display/json.go), which is why the
 * policies judge the steps here.
 */

const State = z
  .object({
    urn: z.string().optional(),
    type: z.string(),
    id: z.string().optional(),
    inputs: z.record(z.string(), z.unknown()).default({}),
    dependencies: z.array(z.string()).optional(),
    propertyDependencies: z.record(z.string(), z.array(z.string())).optional(),
    /** `project:///index.ts#12,5`: file relative to the project, line and column. */
    sourcePosition: z.string().optional(),
  })
  .passthrough();
export type PreviewState = z.output<typeof State>;

export const PreviewStep = z
  .object({
    op: z.string(),
    urn: z.string().startsWith("urn:pulumi:"),
    oldState: State.optional(),
    newState: State.optional(),
  })
  .passthrough();
export type PreviewStep = z.output<typeof PreviewStep>;

export const PreviewDigest = z
  .object({
    steps: z.array(PreviewStep).default([]),
    changeSummary: z.record(z.string(), z.number()).optional(),
  })
  .passthrough();
export type PreviewDigest = z.output<typeof PreviewDigest>;

/** `project:///src/index.ts#12,5` → `{ file: "src/index.ts", line: 12, column: 5 }`. */
export function sourcePositionOf(position: string | undefined): { file: string; line: number; column?: number } | undefined {
  const m = position === undefined ? null : /^project:\/\/\/(.+)#(\d+)(?:,(\d+))?$/.exec(position);
  if (!m) return undefined;
  return { file: decodeURIComponent(m[1]!), line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) };
}
