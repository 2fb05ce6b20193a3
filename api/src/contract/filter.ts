import { ConnectedAccount } from "./account";
import { Provider } from "./common";
import { z } from "./zod";

/** The portal's global filter: every Cloud Group (spec rule 1: API-created ones appear at once). */
export const GlobalFilter = z
  .object({
    groups: z.array(z.object({ id: z.string(), name: z.string(), source: z.enum(["api", "portal"]), memberCount: z.number().int() })),
    providers: z.array(Provider),
    accounts: z.array(ConnectedAccount),
  })
  .openapi("GlobalFilter");
export type GlobalFilter = z.infer<typeof GlobalFilter>;
