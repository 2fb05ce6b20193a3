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
    /** `project:///index.ts#12,5`: file relative to the project, line and column — of the innermost frame. */
    sourcePosition: z.string().optional(),
    /** The registration's frames, innermost first: the SDK's constructor, then the program's line. */
    stackTrace: z.array(z.object({ sourcePosition: z.string().optional() }).passthrough()).optional(),
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

/**
 * Where the program declares the resource: the innermost frame of the registration inside the project —
 * neither a package (`node_modules/`, the SDK's own `new Resource`) nor a file outside the project (`../`, a
 * linked workspace package). The engine's `sourcePosition` alone is the innermost frame of all, which for a
 * component or a provider's class is the class's constructor, not the user's line.
 */
export function programPosition(state: PreviewState): { file: string; line: number; column?: number } | undefined {
  const frames = [state.sourcePosition, ...(state.stackTrace ?? []).map((f) => f.sourcePosition)];
  for (const frame of frames) {
    const position = sourcePositionOf(frame);
    if (position && !position.file.startsWith("../") && !position.file.split("/").includes("node_modules")) return position;
  }
  return undefined;
}

/** `project:///src/index.ts#12,5` → `{ file: "src/index.ts", line: 12, column: 5 }`. */
export function sourcePositionOf(position: string | undefined): { file: string; line: number; column?: number } | undefined {
  const m = position === undefined ? null : /^project:\/\/\/(.+)#(\d+)(?:,(\d+))?$/.exec(position);
  if (!m) return undefined;
  return { file: decodeURIComponent(m[1]!), line: Number(m[2]), ...(m[3] ? { column: Number(m[3]) } : {}) };
}
