import { ConnectedAccountPage } from "@cloudcost/api";
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SANDBOX_CLI, START_TIMEOUT_MS, startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call } from "./api-client";

/** Runs the CLI without the harness's `--data`. */
function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [SANDBOX_CLI, ...args], { timeout: START_TIMEOUT_MS }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    ),
  );
}

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
    [["frobnicate"], /unknown command 'frobnicate'/],
    [["org", "create"], /missing required argument 'name'/],
    [["org", "create", "x", "--permissions", "admin"], /--permissions takes/],
    [["org", "create", "bad name!"], /NAME must be 1 to 64 letters, digits/],
    [["org", "create", " "], /NAME must be 1 to 64 letters/],
    [["account", "add", "--org", "demo", "--provider", "gcp", "--id", "1"], /Allowed choices are aws, azure/],
    [["account", "add", "--org", "demo", "--provider", "aws"], /required option '--id <id>' not specified/],
    [["account", "add", "--org", "demo", "--provider", "aws,azure", "--id", "123456789012"], /Allowed choices are aws, azure/],
    [["account", "add", "--org", "demo", "--id", "123456789012"], /required option '--provider <provider>' not specified/],
    [["account", "add", "--org", "demo", "--provider", "aws", "--id", "12"], /--id must be exactly 12 digits/],
    [["account", "add", "--org", "demo", "--provider", "azure", "--id", "12"], /--id must be a subscription GUID/],
    [["account", "add", "--org", "demo", "--provider", "aws", "--id", "123456789012", "--name", "  "], /--name must not be blank/],
    [["token", "create", "--org", "demo", "--expires-in", "soon"], /--expires-in must be a whole number of at least 1, got "soon"/],
    [["token", "create", "--org", "demo", "--expires-in", "-5"], /--expires-in must be a whole number of at least 1, got "-5"/],
    [["token", "create", "--org", "demo", "--colour", "red"], /unknown option '--colour'/],
    [["serve", "--port", "99999"], /--port must be a whole number from 0 to 65535/],
    [["serve", "--faults", "2"], /--faults must be a number from 0 to 1/],
    [["serve", "--fault-seed", "3"], /--fault-seed needs --faults/],
    [["serve", "--faults", "0.1", "--fault-kinds", "explode"], /--fault-kinds takes/],
  ])("rejects %j with a usage error on stderr and exit code 2", async (args, message) => {
    const r = await sandbox.cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it.each([
    [[]],
    [["serve"]],
    [["token"]],
    [["token", "create"]],
    [["token", "revoke"]],
    [["org", "create"]],
    [["account", "add"]],
    [["client", "create"]],
    [["client", "delete"]],
  ])("prints help for %j --help and exits 0", async (args) => {
    const r = await run([...args, "--help"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toMatch(new RegExp(`^Usage: cloudcost-sandbox ${args.join(" ")}`.trim()));
    expect(r.stdout).toMatch(/--help/);
  });

  it.each([[[]], [["token"]], [["org"]]])("answers %j (no command) with the usage on stderr and exit code 2", async (args) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^Usage: cloudcost-sandbox ${args.join(" ")}`.trim()));
  });

  it.each([
    [["account", "add", "--org", "nobody", "--provider", "aws", "--id", "123456789012"], /no organization named "nobody"/],
    [["account", "add", "--org", "demo", "--provider", "aws", "--id", "111122223333"], /already connected/],
    [["org", "create", "demo"], /an organization named "demo" already exists/],
  ])("fails %j with exit code 1 and a clear message", async (args, message) => {
    const r = await sandbox.cli(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it("names an unusable data folder and says how to choose another", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "cloudcost-file-")), "not-a-folder");
    writeFileSync(file, "");
    try {
      for (const args of [
        ["token", "create", "--org", "demo"],
        ["serve", "--port", "0"],
      ]) {
        const r = await run([...args, "--data", join(file, "data")]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`cannot use the data folder ${join(file, "data")}`);
        expect(r.stderr).toMatch(/--data DIR/);
      }
    } finally {
      rmSync(dirname(file), { recursive: true, force: true });
    }
  });

  it("serve says where the API, the portal and the OpenAPI document are and how to sign in", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cloudcost-serve-"));
    const child = spawn(process.execPath, [SANDBOX_CLI, "serve", "--port", "0", "--data", dir], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      let text = "";
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("Ctrl+C")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${text}`)));
      });
      const lines = text.split("\n");
      const origin = /^cloudcost sandbox listening on (http:\/\/127\.0\.0\.1:\d+)\/api\/v1$/.exec(lines[0]!)?.[1];
      expect(origin).toBeDefined();
      expect(text).toContain(`API:      ${origin}/api/v1`);
      expect(text).toContain(`OpenAPI:  ${origin}/api/v1/openapi.json`);
      expect(text).toContain(`Portal:   ${origin}/portal/`);
      expect(text).toMatch(/Sign in: {2}demo@cloudcost\.dev \/ \S+/);
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names a port in use and the way out", async () => {
    const port = Number(new URL(sandbox.origin).port);
    const dir = mkdtempSync(join(tmpdir(), "cloudcost-port-"));
    try {
      const r = await run(["serve", "--port", String(port), "--data", dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`port ${port} on 127.0.0.1 is already in use.*--port 0 picks a free one`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
