import type { Verdict } from "../verdict/verdict";

/** The verdict as it is (README, "Output formats"): violations, waived, waivers, budget, policies. */
export const json = (v: Verdict): string => `${JSON.stringify(v, null, 2)}\n`;
