/**
 * The OpenTofu every Terraform suite runs (scripts/opentofu.js) is the pinned release built without the cloud SDKs
 * scripts/opentofu-trims.js leaves out: a configuration naming a left-out remote-state backend, cloud KMS key provider
 * or s3::/gcs:: module source is refused by name, with OpenTofu's own error; what every configuration here uses (the
 * local backend, pbkdf2 state encryption) works as before.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";
import { lastLine } from "./support";

const run = promisify(execFile);
const { LEFT_OUT_BACKENDS, LEFT_OUT_KEY_PROVIDERS, LEFT_OUT_MODULE_SOURCES } = require("../../scripts/opentofu-trims.js") as {
  LEFT_OUT_BACKENDS: Record<string, string>;
  LEFT_OUT_KEY_PROVIDERS: string[];
  LEFT_OUT_MODULE_SOURCES: Record<string, string>;
};

let tofu: string;
const folders: string[] = [];
beforeAll(() => void (tofu = lastLine("opentofu.js", ["--print-bin"])));
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** `tofu COMMAND -no-color -input=false` in a new folder whose main.tf is CONFIG; its exit code and output. */
async function tofuIn(config: string, command: "init" | "plan"): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-tofu-trims-"));
  folders.push(dir);
  writeFileSync(join(dir, "main.tf"), config);
  const env = { ...process.env, TF_IN_AUTOMATION: "1", TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" };
  // Whitespace collapsed: OpenTofu wraps its diagnostics at the terminal's width.
  const said = (r: { stdout?: string; stderr?: string }) => `${r.stdout ?? ""}${r.stderr ?? ""}`.replace(/\s+/g, " ");
  try {
    return { code: 0, output: said(await run(tofu, [command, "-no-color", "-input=false"], { cwd: dir, env, timeout: START_TIMEOUT_MS })) };
  } catch (err) {
    const { code } = err as { code?: number };
    return { code: typeof code === "number" ? code : -1, output: said(err as { stdout?: string; stderr?: string }) };
  }
}

const withBackend = (type: string, body = "") => `terraform {\n  backend "${type}" {${body}}\n}\n`;

/** State encrypted with a key from KEY_PROVIDER (its block's body: BODY). */
const withStateKey = (provider: string, body: string) => `terraform {
  encryption {
    key_provider "${provider}" "k" {
      ${body}
    }
    method "aes_gcm" "m" {
      keys = key_provider.${provider}.k
    }
    state {
      method = method.aes_gcm.m
    }
  }
}
`;

it.each(Object.keys(LEFT_OUT_BACKENDS))('refuses backend "%s" by name, saying it is left out of this build', async (type) => {
  const { code, output } = await tofuIn(withBackend(type), "init");
  expect(code).toBe(1);
  expect(output).toContain("Unsupported backend type");
  expect(output).toContain(`The "${type}" backend is left out of this build of OpenTofu`);
});

it("keeps the local backend: init succeeds and names it", async () => {
  const { code, output } = await tofuIn(withBackend("local", ' path = "state.tfstate" '), "init");
  expect(output).toContain('Successfully configured the backend "local"');
  expect(code).toBe(0);
});

it.each(LEFT_OUT_KEY_PROVIDERS)('refuses key provider "%s" by name when state is encrypted with it', async (provider) => {
  const { code, output } = await tofuIn(withStateKey(provider, ""), "plan");
  expect(code).toBe(1);
  expect(output).toContain(`Error fetching key_provider "${provider}"`);
  expect(output).toContain(`key provider with ID ${provider} not found`);
});

it("keeps pbkdf2: a plan of state encrypted with a passphrase succeeds", async () => {
  const { code, output } = await tofuIn(withStateKey("pbkdf2", 'passphrase = "correct-horse-battery-staple"'), "plan");
  expect(output).toContain("No changes");
  expect(code).toBe(0);
});

it.each(Object.keys(LEFT_OUT_MODULE_SOURCES))('refuses "%s::" module sources by name', async (scheme) => {
  const { code, output } = await tofuIn(`module "m" {\n  source = "${scheme}::https://example.invalid/bucket/module.zip"\n}\n`, "init");
  expect(code).toBe(1);
  expect(output).toContain(`download not supported for scheme '${scheme}'`);
});
