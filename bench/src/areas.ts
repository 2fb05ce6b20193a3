import { doorsBench } from "./doors";
import { engineBench } from "./engine";
import { policiesBench } from "./policies";
import { providerBench } from "./provider";
import { requestsBench } from "./proof-requests";
import { rateLimitedBench } from "./rate-limited";
import { refreshBench } from "./refresh";
import { sandboxBench } from "./sandbox";
/** Each benchmark area: runs its measurements (with their own same-run baseline) and returns a JSON summary. */
export type BenchArea = () => Promise<Record<string, unknown>>;

// Areas register here: `sandbox`, `policies`, `provider`, ...
export const areas: Record<string, BenchArea> = {
  doors: doorsBench,
  engine: engineBench,
  policies: policiesBench,
  provider: providerBench,
  rateLimited: rateLimitedBench,
  refresh: refreshBench,
  requests: requestsBench,
  sandbox: sandboxBench,
};
