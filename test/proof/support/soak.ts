/**
 * `npm run test:soak` sets CLOUDCOST_SOAK=1: the resilience and fuzz tests then run at the size the
 * issue names (1,000 resources) and longer; the regular suite runs the same code at a size that keeps
 * it fast.
 */
export const SOAK = process.env.CLOUDCOST_SOAK === "1";

/** Resources per provider run: 1,000 in the soak run, 150 in the regular suite. */
export const RESOURCES = SOAK ? 1000 : 150;

/** `pulumi up --parallel 16`. */
export const PARALLELISM = 16;

/** How long the crash test writes before `kill -9`. */
export const CRASH_LOAD_MS = SOAK ? 10_000 : 2_000;

/** fast-check runs per wire-fuzz property. */
export const FUZZ_RUNS = SOAK ? 1000 : 150;
