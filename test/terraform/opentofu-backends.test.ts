/**
 * The OpenTofu every Terraform suite runs (scripts/opentofu.js) is the pinned release built without the remote-state
 * backends scripts/opentofu-backends.js leaves out: a configuration naming one is refused by `tofu init` with
 * OpenTofu's own error and a detail that says why; the local backend, where every configuration here keeps its
 * state, works as before.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";
import { lastLine } from "./support";

const run = promisify(execFile);
const { LEFT_OUT_BACKENDS } = require("../../scripts/opentofu-backends.js") as { LEFT_OUT_BACKENDS: Record<string, string> };

let tofu: string;
const folders: string[] = [];
beforeAll(() => void (tofu = lastLine("opentofu.js", ["--print-bin"])));
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** `tofu init` of a configuration whose only content is a backend block of TYPE. */
async function initWithBackend(type: string, body = ""): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-tofu-backend-"));
  folders.push(dir);
  writeFileSync(join(dir, "main.tf"), `terraform {\n  backend "${type}" {${body}}\n}\n`);
  const env = { ...process.env, TF_IN_AUTOMATION: "1", TF_CLI_CONFIG_FILE: "/dev/null", CHECKPOINT_DISABLE: "1" };
  try {
    const { stdout, stderr } = await run(tofu, ["init", "-no-color", "-input=false"], { cwd: dir, env, timeout: START_TIMEOUT_MS });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const { code, stdout = "", stderr = "" } = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof code === "number" ? code : -1, output: stdout + stderr };
  }
}

it.each(Object.keys(LEFT_OUT_BACKENDS))('refuses backend "%s" by name, saying it is left out of this build', async (type) => {
  const { code, output } = await initWithBackend(type);
  expect(code).toBe(1);
  expect(output).toContain("Unsupported backend type");
  expect(output.replace(/\s+/g, " ")).toContain(`The "${type}" backend is left out of this build of OpenTofu`);
});

it("keeps the local backend: init succeeds and names it", async () => {
  const { code, output } = await initWithBackend("local", ' path = "state.tfstate" ');
  expect(output).toContain('Successfully configured the backend "local"');
  expect(code).toBe(0);
});
