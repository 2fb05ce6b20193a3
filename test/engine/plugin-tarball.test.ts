/**
 * The plugin shipped the way Pulumi installs plugins: `npm run package -w native -- --sea` makes the
 * per-platform tarballs; `pulumi plugin install resource cloudcost <version> --file <tarball>` puts one in the
 * plugin cache, where a program that names no plugin path finds it. Both forms: the bundle with a launcher
 * (Node on the PATH) and the single executable, run here with no Node on the PATH at all.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { pulumiCliBin } from "@cloudcost/testkit";
import { REPO, useEngineFixture } from "./support";

const fx = useEngineFixture();
const { version } = JSON.parse(readFileSync(join(REPO, "native", "package.json"), "utf8")) as { version: string };
const PLATFORM = `${process.platform === "darwin" ? "darwin" : "linux"}-${process.arch === "arm64" ? "arm64" : "amd64"}`;
let out: string;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "cloudcost-plugin-tarballs-"));
  execFileSync(process.execPath, [join(REPO, "native", "scripts", "package.mjs"), "--sea", "--out", out], { stdio: "pipe" });
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** A YAML program that names the package only (the CLI must find the plugin in its cache): a group and an alert on it. */
function program(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-cached-plugin-"));
  writeFileSync(
    join(dir, "Pulumi.yaml"),
    [
      `name: ${name}`,
      "runtime: yaml",
      "resources:",
      "  team:",
      "    type: cloudcost:index:CloudGroup",
      "    properties:",
      `      name: ${name}`,
      "  budget:",
      "    type: cloudcost:index:BudgetAlert",
      "    properties:",
      `      name: ${name} budget`,
      "      amount: 100",
      "      groupId: ${team.id}",
      "outputs:",
      "  groupId: ${team.id}",
    ].join("\n"),
  );
  return dir;
}

async function installAndDeploy(tarball: string, name: string, env: Record<string, string> = {}): Promise<void> {
  const install = await fx.workspace.run(
    ["plugin", "install", "resource", "cloudcost", version, "--file", tarball, "--reinstall"],
    tmpdir(),
  );
  expect([install.code, install.stderr]).toEqual([0, expect.not.stringMatching(/error/i)]);
  const stack = await fx.stack(program(name), "dev");
  // A preview first: the alert's groupId is unknown until the group exists (Check with the unknown sentinel).
  const preview = await stack.run(["preview"], { env });
  expect([preview.code, preview.stdout]).toEqual([0, expect.stringMatching(/3 to create/)]);
  const up = await stack.up([], { env });
  expect([up.code, up.stderr, up.code ? up.stdout : ""]).toEqual([0, "", ""]);
  const { groupId } = (await stack.outputs()) as { groupId: string };
  expect((await fx.api.getGroup(groupId)).name).toBe(name);
  expect((await stack.destroy([], { env })).code).toBe(0);
}

test("the Node form: the bundle and its launcher, run by the node on the PATH", async () => {
  // The CLI and Node only: under npm, node_modules/.bin (which has native's own launcher) is on the PATH too,
  // and the CLI would take a plugin from the PATH before its cache.
  const nodeOnly = { PATH: [pulumiCliBin(), dirname(process.execPath)].join(delimiter) };
  await installAndDeploy(join(out, `pulumi-resource-cloudcost-v${version}-${PLATFORM}.tar.gz`), "cached-node-plugin", nodeOnly);
});

test("the single executable: no Node on the PATH", async () => {
  // The CLI and its YAML host only: this machine has a node in /usr/bin too.
  const withoutNode = { PATH: pulumiCliBin() };
  expect(() => execFileSync("node", ["--version"], { env: withoutNode, stdio: "pipe" })).toThrow();
  await installAndDeploy(join(out, `pulumi-resource-cloudcost-v${version}-${PLATFORM}-sea.tar.gz`), "cached-sea-plugin", withoutNode);
});
