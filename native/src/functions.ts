import {
  ConnectedAccount,
  CostByDay,
  CostByService,
  CostComparison,
  CostForecast,
  CostQuery,
  CostSummary,
  SigningSecret,
  costFiltersOf,
  operations,
  z,
  type CloudCostClient,
  type CostReadRequest,
} from "@cloudcost/api";
import { PACKAGE } from "./tokens";

/**
 * The provider's functions (Pulumi "invokes"): the cost reads and the webhook signing secret, as the
 * dynamic package's `getCostSummary`, …, `getWebhookSigningSecret` offer them. Each is bound to its
 * operation in the contract's table: its description is that operation's summary, its result schema the
 * operation's response (or, for the paged account list, all pages in one object).
 */
export interface ProviderFunction {
  /** The operation of the contract's table it calls (description from its summary). */
  operationId: (typeof operations)[number]["operationId"];
  /** undefined: the function takes no arguments. */
  input?: z.ZodObject;
  output: z.ZodObject;
  /** Result properties Pulumi must keep secret (encrypted in state, masked in logs). */
  secretOutputs?: readonly string[];
  call(client: CloudCostClient, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/**
 * The function's arguments are the query's own parameters, top level as the schema names them (`providers`,
 * `accountIds`, `services`, `regions`, `tag` as KEY=VALUE): the client takes them as `filters`, so they are
 * gathered there — handed over as they came, the client would not see them and the read would be unfiltered.
 */
function query(args: Record<string, unknown>): CostReadRequest {
  const q = CostQuery.parse(args);
  return { from: q.from, to: q.to, ...(q.groupId === undefined ? {} : { groupId: q.groupId }), filters: costFiltersOf(q) };
}

const AccountList = z.object({ accounts: z.array(ConnectedAccount) });

export const FUNCTIONS: Record<string, ProviderFunction> = {
  getCostSummary: { operationId: "getCostSummary", input: CostQuery, output: CostSummary, call: (c, a) => c.getCostSummary(query(a)) },
  getCostByService: {
    operationId: "getCostByService",
    input: CostQuery,
    output: CostByService,
    call: (c, a) => c.getCostByService(query(a)),
  },
  getCostByDay: { operationId: "getCostByDay", input: CostQuery, output: CostByDay, call: (c, a) => c.getCostByDay(query(a)) },
  getCostForecast: { operationId: "getCostForecast", input: CostQuery, output: CostForecast, call: (c, a) => c.getCostForecast(query(a)) },
  getCostComparison: {
    operationId: "getCostComparison",
    input: CostQuery,
    output: CostComparison,
    call: (c, a) => c.getCostComparison(query(a)),
  },
  getAccounts: {
    operationId: "listAccounts",
    output: AccountList,
    async call(client) {
      const accounts: ConnectedAccount[] = [];
      for await (const account of client.listAccounts()) accounts.push(account);
      return { accounts };
    },
  },
  getWebhookSigningSecret: {
    operationId: "getWebhookSigningSecret",
    output: SigningSecret,
    secretOutputs: ["secret"],
    call: (client) => client.getWebhookSigningSecret(),
  },
};

/** The token of a function: `cloudcost:index:getCostSummary`. */
export const functionToken = (name: string): string => `${PACKAGE}:index:${name}`;

/** The function a token names, if any. */
export function functionOf(token: string): ProviderFunction | undefined {
  const prefix = `${PACKAGE}:index:`;
  return token.startsWith(prefix) ? FUNCTIONS[token.slice(prefix.length)] : undefined;
}

/** The summary of an operation of the contract's table. */
export function operationSummary(operationId: string): string {
  const route = operations.find((o) => o.operationId === operationId);
  if (!route) throw new Error(`no operation ${operationId} in the contract`);
  return route.summary;
}
