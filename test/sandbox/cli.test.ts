import { ConnectedAccountPage } from "@cloudcost/api";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SANDBOX_CLI, startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call } from "./api-client";

describe("cloudcost-sandbox command line", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.dispose());

  it("creates an organization, connects accounts and issues a token while serve runs on the same folder", async () => {
    const org = await sandbox.cliJson<{ id: string; name: string; permissions: string[] }>([
      "org",
      "create",
      "cli-org",
      "--permissions",
      "read,write",
      "--json",
    ]);
    expect(org).toMatchObject({ name: "cli-org", permissions: ["read", "write"] });
    const azure = await sandbox.cliJson<{ accountId: string }>([
      "account",
      "add",
      "--org",
      "cli-org",
      "--provider",
      "azure",
      "--id",
      "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE",
      "--json",
    ]);
    expect(azure.accountId).toBe("aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee");
    const human = await sandbox.cli(["account", "add", "--org", "cli-org", "--provider", "aws", "--id", "123456789012", "--name", "Main"]);
    expect(human).toMatchObject({ code: 0, stdout: "connected aws account 123456789012 (Main)\n" });
    const { token } = await sandbox.cliJson<{ token: string }>(["token", "create", "--org", "cli-org", "--scopes", "read", "--json"]);
    const accounts = ConnectedAccountPage.parse((await call(sandbox, "GET", "/accounts", { token })).body);
    expect(accounts.items.map((a) => a.accountId)).toEqual(["aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee", "123456789012"]);
  });

  it("creates an OAuth client once (secret shown once) and deletes it", async () => {
    const client = await sandbox.client("read,run");
    expect(client.scopes).toEqual(["read", "run"]);
    expect(client.client_secret.length).toBeGreaterThan(30);
    expect(await sandbox.cli(["client", "delete", "--org", "demo", client.client_id])).toMatchObject({ code: 0 });
    const again = await sandbox.cli(["client", "delete", "--org", "demo", client.client_id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error: no OAuth client/);
  });

  it("revokes a token once", async () => {
    const token = await sandbox.token("read");
    expect((await sandbox.cli(["token", "revoke", "--org", "demo", token])).code).toBe(0);
    expect((await call(sandbox, "GET", "/accounts", { token })).status).toBe(401);
    expect((await sandbox.cli(["token", "revoke", "--org", "demo", token])).code).toBe(1);
  });

  it.each([
    [["frobnicate"], /unknown command/],
    [["org", "create"], /expected NAME/],
    [["org", "create", "x", "--permissions", "admin"], /--permissions takes/],
    [["account", "add", "--org", "demo", "--provider", "gcp", "--id", "1"], /--provider takes/],
    [["account", "add", "--org", "demo", "--provider", "aws"], /--id is required/],
    [["account", "add", "--org", "demo", "--provider", "aws,azure", "--id", "123456789012"], /--provider takes one of aws, azure/],
    [["account", "add", "--org", "demo", "--id", "123456789012"], /--provider is required/],
    [["org", "create", " "], /NAME must not be empty/],
    [["token", "create", "--org", "demo", "--expires-in", "soon"], /--expires-in must be a whole number/],
    [["token", "create", "--org", "demo", "--colour", "red"], /Unknown option '--colour'/],
    [["serve", "--port", "99999"], /--port must be a whole number/],
    [["serve", "--faults", "2"], /--faults must be a number from 0 to 1/],
    [["serve", "--fault-seed", "3"], /--fault-seed needs --faults/],
    [["serve", "--faults", "0.1", "--fault-kinds", "explode"], /--fault-kinds takes/],
  ])("rejects %j with one line on stderr and exit code 2", async (args, message) => {
    const r = await sandbox.cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it.each([
    [["account", "add", "--org", "nobody", "--provider", "aws", "--id", "123456789012"], /no organization named "nobody"/],
    [["account", "add", "--org", "demo", "--provider", "aws", "--id", "12"], /not a valid aws account ID/],
    [["account", "add", "--org", "demo", "--provider", "aws", "--id", "111122223333"], /already connected/],
    [["org", "create", "demo"], /an organization named "demo" already exists/],
  ])("fails %j with exit code 1 and a clear message", async (args, message) => {
    const r = await sandbox.cli(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it("bootstraps a fresh folder named by CLOUDCOST_SANDBOX_DATA", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cloudcost-env-"));
    try {
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [SANDBOX_CLI, "token", "create", "--org", "demo", "--json"],
          { env: { ...process.env, CLOUDCOST_SANDBOX_DATA: join(dir, "nested") } },
          (err, out) => (err ? reject(err) : resolve(out)),
        ),
      );
      expect(JSON.parse(stdout)).toEqual({ token: expect.stringMatching(/^ccpat_/) });
      expect(existsSync(join(dir, "nested", "sandbox.db"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
