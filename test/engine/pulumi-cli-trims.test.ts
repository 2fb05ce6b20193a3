/**
 * The Pulumi CLI every engine suite runs (scripts/pulumi-cli.js) is the pinned release built from a copy of pkg/v3
 * without the cloud SDKs scripts/pulumi-cli-trims.js leaves out: state in s3://, gs:// and azblob:// is refused by
 * name (not taken for a Pulumi Cloud URL), and so are the awskms://, gcpkms:// and azurekeyvault:// secrets
 * providers, `pulumi env setup aws|azure` (hidden: the help offers gcp only) and `pulumi api`; what every stack here uses (file:// state; passphrase and
 * hashivault:// secrets, the latter in every other engine suite) works as before.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PulumiWorkspace } from "@cloudcost/testkit";

let ws: PulumiWorkspace;
let project: string;
beforeAll(() => {
  ws = new PulumiWorkspace({ secretsProvider: "passphrase" });
  project = mkdtempSync(join(tmpdir(), "cloudcost-cli-trims-"));
  writeFileSync(join(project, "Pulumi.yaml"), "name: cli-trims\nruntime: yaml\n");
});
afterAll(() => {
  ws.dispose();
  rmSync(project, { recursive: true, force: true });
});

const said = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).replace(/\s+/g, " ");

it.each(["s3", "gs", "azblob"])("refuses %s:// state by name, saying it is left out of this build", async (scheme) => {
  const result = await ws.run(["login", `${scheme}://cloudcost-state-bucket`], project);
  expect(result.code).not.toBe(0);
  expect(said(result)).toContain(`the ${scheme}:// state backend is left out of this build of the Pulumi CLI`);
  expect(said(result)).not.toContain("PULUMI_ACCESS_TOKEN");
});

it.each([
  ["awskms", "awskms://alias/cloudcost"],
  ["gcpkms", "gcpkms://projects/p/locations/global/keyRings/r/cryptoKeys/k"],
  ["azurekeyvault", "azurekeyvault://cloudcost.vault.azure.net/keys/k"],
])("refuses the %s secrets provider by name, saying it is left out of this build", async (scheme, url) => {
  const result = await ws.run(["stack", "init", `kms-${scheme}`, "--secrets-provider", url], project);
  expect(result.code).not.toBe(0);
  expect(said(result)).toContain(`the ${scheme}:// secrets provider is left out of this build of the Pulumi CLI`);
  expect((await ws.must(["stack", "ls", "--json"], project)).stdout).not.toContain(`kms-${scheme}`);
});

it("keeps file:// state with passphrase secrets: a stack is created, holds a secret and lists", async () => {
  await ws.must(["stack", "init", "kept", "--secrets-provider", "passphrase"], project);
  await ws.must(["config", "set", "--secret", "token"], project, { stdin: "s3cr3t" });
  const shown = await ws.must(["config", "get", "token"], project);
  expect(shown.stdout.trim()).toBe("s3cr3t");
  expect((await ws.must(["stack", "ls", "--json"], project)).stdout).toContain('"name": "kept"');
});

it("offers `pulumi env setup gcp` only, and refuses aws and azure by name", async () => {
  const { stdout } = await ws.must(["env", "setup", "--help"], project);
  const commands = /Available Commands:\n([\s\S]*?)\n\n/.exec(stdout)?.[1] ?? "";
  expect(commands.split("\n").map((line) => line.trim().split(/\s+/)[0])).toEqual(["gcp"]);
  for (const cloud of ["aws", "azure"]) {
    const result = await ws.run(["env", "setup", cloud], project);
    expect(result.code).not.toBe(0);
    expect(said(result)).toContain(`\`pulumi env setup ${cloud}\` is left out of this build of the Pulumi CLI`);
  }
});

it("refuses `pulumi api` by name, saying it is left out of this build", async () => {
  const result = await ws.run(["api", "/api/user"], project);
  expect(result.code).not.toBe(0);
  expect(said(result)).toContain("`pulumi api` is left out of this build of the Pulumi CLI");
});
