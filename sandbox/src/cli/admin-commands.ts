import { ALL_SCOPES, Provider } from "@cloudcost/api/contract";
import { connectAccount } from "../service/connect-account";
import { accountId, choice, integer, label, orgName, required, scopes, type Output, type Values } from "./arguments";
import { withContext } from "./with-context";
import { UsageError } from "../errors";

const json = (out: Output, value: unknown) => out(JSON.stringify(value));

/** `org create NAME [--permissions read,write,run] [--json]` */
export function orgCreate(values: Values, rawName: string, out: Output): void {
  const permissions = scopes(values, "permissions") ?? ALL_SCOPES;
  const name = orgName(rawName);
  const org = withContext(values, (ctx) => ctx.orgs.create(name, permissions));
  if (values.json) json(out, { id: org.id, name: org.name, permissions: org.permissions });
  else out(`created organization ${org.name} (${org.id}) with permissions ${org.permissions.join(",")}`);
}

/** `account add --org NAME --provider aws|azure --id ID [--name LABEL] [--json]` */
export function accountAdd(values: Values, out: Output): void {
  const provider = choice(values, "provider", Provider.options);
  if (provider === undefined) throw new UsageError("--provider is required");
  const id = accountId(provider, required(values, "id"));
  const name = label(values, "name");
  const account = withContext(values, (ctx) => connectAccount(ctx, ctx.orgs.require(required(values, "org")).id, provider, id, name));
  if (values.json) json(out, account);
  else out(`connected ${account.provider} account ${account.accountId} (${account.name})`);
}

/** `client create --org NAME --scopes read,write,run [--name LABEL] [--json]`: the secret is shown this once. */
export function clientCreate(values: Values, out: Output): void {
  const wanted = scopes(values) ?? ALL_SCOPES;
  const name = label(values, "name") ?? "cli";
  const client = withContext(values, (ctx) =>
    ctx.credentials.createConfidentialClient(ctx.orgs.require(required(values, "org")).id, name, wanted),
  );
  if (values.json) json(out, client);
  else
    out(
      `client_id: ${client.client_id}\nclient_secret: ${client.client_secret}\nscopes: ${client.scopes.join(" ")}\n(the secret is shown only once)`,
    );
}

/** `client delete --org NAME CLIENT_ID`: every token the client issued stops working. */
export function clientDelete(values: Values, clientId: string, out: Output): void {
  const deleted = withContext(values, (ctx) => ctx.credentials.deleteClient(ctx.orgs.require(required(values, "org")).id, clientId));
  if (!deleted) throw new Error(`no OAuth client ${clientId} in organization ${required(values, "org")}`);
  out(`deleted client ${clientId} and revoked its tokens`);
}

/** `token create --org NAME [--scopes …] [--expires-in SECONDS] [--label LABEL] [--json]`: an API token (never expires unless told). */
export function tokenCreate(values: Values, out: Output): void {
  const tokenLabel = label(values, "label") ?? "cli";
  const ttl = values["expires-in"] === undefined ? null : integer(values, "expires-in", 0, 1);
  const issued = withContext(values, (ctx) => {
    const org = ctx.orgs.require(required(values, "org"));
    return ctx.credentials.issueToken({
      kind: "api",
      orgId: org.id,
      scopes: scopes(values) ?? org.permissions,
      ttlSeconds: ttl,
      label: tokenLabel,
    });
  });
  if (values.json) json(out, { token: issued.token });
  else out(issued.token);
}

/** `token revoke --org NAME TOKEN` */
export function tokenRevoke(values: Values, token: string, out: Output): void {
  const revoked = withContext(values, (ctx) => ctx.credentials.revokeToken(token, ctx.orgs.require(required(values, "org")).id));
  if (!revoked) throw new Error(`no active token like that in organization ${required(values, "org")}`);
  out("token revoked");
}
