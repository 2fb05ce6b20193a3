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

/**
 * Acknowledged writes before the crash test's `kill -9`: a count, never a time, so the kill meets a load in full flight
 * on a busy machine too (in a cold CI run, a 2-s bound met 43 acknowledged writes where the test asked for 50: issue 39).
 */
export const CRASH_ACKNOWLEDGED = SOAK ? 2_000 : 200;

/** fast-check runs per wire-fuzz property. */
export const FUZZ_RUNS = SOAK ? 1000 : 150;
