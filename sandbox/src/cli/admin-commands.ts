import { ALL_SCOPES, DEFAULT_ACCESS_TOKEN_TTL_SECONDS, Provider } from "@cloudcost/api";
import { connectAccount } from "../service/connect-account";
import type { SandboxContext } from "../service/context";
import { DEFAULT_SCAN_STEP_MS } from "../index";
import { openContext } from "../service/open-context";
import { choice, dataDir, integer, parse, required, scopes, string, type Values } from "./arguments";
import { UsageError } from "../errors";

type Output = (line: string) => void;

function withContext<T>(values: Values, work: (ctx: SandboxContext) => T): T {
  // The admin commands only write rows; origin and lifetimes matter to `serve` alone.
  const ctx = openContext({
    dataDir: dataDir(values),
    origin: "",
    accessTokenTtlSeconds: DEFAULT_ACCESS_TOKEN_TTL_SECONDS,
    scanStepMs: DEFAULT_SCAN_STEP_MS,
  });
  try {
    return work(ctx);
  } finally {
    ctx.db.close();
  }
}

const json = (out: Output, value: unknown) => out(JSON.stringify(value));

/** `org create NAME [--permissions read,write,run] [--json]` */
export function orgCreate(args: readonly string[], out: Output): void {
  const { values, positionals } = parse(args, { permissions: { type: "string" }, json: { type: "boolean" } }, ["NAME"]);
  const permissions = scopes(values, "permissions") ?? ALL_SCOPES;
  const name = positionals[0]!;
  // `--org NAME` refuses an empty name, so an organization named "" could never be used.
  if (name.trim() === "") throw new UsageError("NAME must not be empty");
  const org = withContext(values, (ctx) => ctx.orgs.create(name, permissions));
  if (values.json) json(out, { id: org.id, name: org.name, permissions: org.permissions });
  else out(`created organization ${org.name} (${org.id}) with permissions ${org.permissions.join(",")}`);
}

/** `account add --org NAME --provider aws|azure --id ID [--name LABEL] [--json]` */
export function accountAdd(args: readonly string[], out: Output): void {
  const { values } = parse(
    args,
    { org: { type: "string" }, provider: { type: "string" }, id: { type: "string" }, name: { type: "string" }, json: { type: "boolean" } },
    [],
  );
  const provider = choice(values, "provider", Provider.options);
  if (provider === undefined) throw new UsageError("--provider is required");
  const account = withContext(values, (ctx) =>
    connectAccount(ctx, ctx.orgs.require(required(values, "org")).id, provider, required(values, "id"), string(values, "name")),
  );
  if (values.json) json(out, account);
  else out(`connected ${account.provider} account ${account.accountId} (${account.name})`);
}

/** `client create --org NAME --scopes read,write,run [--name LABEL] [--json]`: the secret is shown this once. */
export function clientCreate(args: readonly string[], out: Output): void {
  const { values } = parse(
    args,
    { org: { type: "string" }, scopes: { type: "string" }, name: { type: "string" }, json: { type: "boolean" } },
    [],
  );
  const wanted = scopes(values) ?? ALL_SCOPES;
  const client = withContext(values, (ctx) =>
    ctx.credentials.createConfidentialClient(ctx.orgs.require(required(values, "org")).id, string(values, "name") ?? "cli", wanted),
  );
  if (values.json) json(out, client);
  else
    out(
      `client_id: ${client.client_id}\nclient_secret: ${client.client_secret}\nscopes: ${client.scopes.join(" ")}\n(the secret is shown only once)`,
    );
}

/** `client delete --org NAME CLIENT_ID`: every token the client issued stops working. */
export function clientDelete(args: readonly string[], out: Output): void {
  const { values, positionals } = parse(args, { org: { type: "string" } }, ["CLIENT_ID"]);
  const clientId = positionals[0]!;
  const deleted = withContext(values, (ctx) => ctx.credentials.deleteClient(ctx.orgs.require(required(values, "org")).id, clientId));
  if (!deleted) throw new Error(`no OAuth client ${clientId} in organization ${required(values, "org")}`);
  out(`deleted client ${clientId} and revoked its tokens`);
}

/** `token create --org NAME [--scopes …] [--expires-in SECONDS] [--label LABEL] [--json]`: an API token (never expires unless told). */
export function tokenCreate(args: readonly string[], out: Output): void {
  const { values } = parse(
    args,
    {
      org: { type: "string" },
      scopes: { type: "string" },
      "expires-in": { type: "string" },
      label: { type: "string" },
      json: { type: "boolean" },
    },
    [],
  );
  const ttl = values["expires-in"] === undefined ? null : integer(values, "expires-in", 0, 1);
  const issued = withContext(values, (ctx) => {
    const org = ctx.orgs.require(required(values, "org"));
    return ctx.credentials.issueToken({
      kind: "api",
      orgId: org.id,
      scopes: scopes(values) ?? org.permissions,
      ttlSeconds: ttl,
      label: string(values, "label") ?? "cli",
    });
  });
  if (values.json) json(out, { token: issued.token });
  else out(issued.token);
}

/** `token revoke --org NAME TOKEN` */
export function tokenRevoke(args: readonly string[], out: Output): void {
  const { values, positionals } = parse(args, { org: { type: "string" } }, ["TOKEN"]);
  const revoked = withContext(values, (ctx) => ctx.credentials.revokeToken(positionals[0]!, ctx.orgs.require(required(values, "org")).id));
  if (!revoked) throw new Error(`no active token like that in organization ${required(values, "org")}`);
  out("token revoked");
}
