/**
 * The Python, Go and YAML examples through the real Pulumi CLI and our language hosts (scripts/pulumi-cli/), on the
 * native plugin (native/bin) and the SDKs generated into sdk/, against a sandbox: `pulumi up`; an alert changed
 * behind Pulumi's back shows in `pulumi preview --refresh` as exactly that update; `pulumi destroy` leaves the
 * organization as it was. (The TypeScript examples' longer round, on the dynamic resources: examples.test.ts.)
 */
import { execFile } from "node:child_process";
import { appendFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import type { PulumiStack } from "@cloudcost/testkit";
import {
  EXAMPLES,
  NATIVE_PLUGIN_YAML,
  REPO,
  changeAlertAmount,
  changedInputs,
  changes,
  compileGoProgram,
  nameOf,
  organizationIds,
  pythonEnvironment,
  useEngineFixture,
} from "./support";

const run = promisify(execFile);
const f = useEngineFixture();

const NATIVE_ALERT = "cloudcost:index:BudgetAlert";

let venv: string | undefined;

/** What a copied program needs besides its files, per language: the user's install step. */
const PREPARE: Record<string, (dir: string) => Promise<void>> = {
  // Pulumi.yaml names `venv` in the project: the shared environment, linked in.
  python: async (dir) => symlinkSync((venv ??= await pythonEnvironment()), join(dir, "venv"), "dir"),
  // go.mod's replace points at ../../sdk/go from examples/; the copy points at the repository's. Then the program's
  // packages compiled once, outside `pulumi up`'s hang guard (compileGoProgram).
  go: async (dir) => {
    await run("go", ["mod", "edit", `-replace=github.com/cloudcost/cloudcost-pulumi/sdk/go=${join(REPO, "sdk", "go")}`], { cwd: dir });
    await compileGoProgram(dir);
  },
  yaml: async () => undefined,
};

const EXAMPLE_STACKS = ["python", "go", "yaml"].flatMap((language) => [
  { example: `quickstart-${language}`, language, stack: "quickstart" },
  { example: `platform-teams-${language}`, language, stack: "dev" },
]);

describe.each(EXAMPLE_STACKS)("examples/$example through the real CLI", ({ example, language, stack: stackName }) => {
  let stack: PulumiStack;
  let before: Awaited<ReturnType<typeof organizationIds>>;

  beforeAll(async () => {
    before = await organizationIds(f.api);
    stack = await f.stack(join(EXAMPLES, example), stackName);
    // The plugin from its folder in this repository (native/README.md), as a user points Pulumi.yaml at it.
    appendFileSync(join(stack.cwd, "Pulumi.yaml"), NATIVE_PLUGIN_YAML);
    await PREPARE[language]!(stack.cwd);
  });

  it("deploys with `pulumi up`", async () => {
    const up = await stack.up();
    expect([up.code, up.stderr]).toEqual([0, ""]);
    const alerts = await stack.resourcesOfType(NATIVE_ALERT);
    expect(alerts.length).toBeGreaterThan(0);
    for (const alert of alerts) expect((await f.api.getAlert(alert.id!)).amount).toBe(alert.inputs!.amount);
    const outputs = await stack.outputs();
    expect(Object.keys(outputs).length).toBeGreaterThan(0);
  });

  it("shows a change made behind Pulumi's back in `pulumi preview --refresh`, and only that", async () => {
    const drift = await changeAlertAmount(f.api, stack, NATIVE_ALERT);
    const { code, digest } = await stack.previewJson(["--refresh"]);
    expect(code).toBe(0);
    const planned = changes(digest);
    expect(planned.map((s) => [s.op, nameOf(s.urn)])).toEqual([["update", drift.name]]);
    expect(changedInputs(planned[0]!)).toEqual(["amount"]);
    // What the user sees as the diff: the amount, nothing else.
    expect(planned[0]!.diffReasons).toEqual(["amount"]);
    expect(planned[0]!.oldState?.inputs?.amount).toBe(drift.drifted);
    expect(planned[0]!.newState?.inputs?.amount).toBe(drift.declared);
  });

  it("leaves the organization as it was after `pulumi destroy`", async () => {
    expect((await stack.destroy()).code).toBe(0);
    expect(await organizationIds(f.api)).toEqual(before);
    expect((await stack.remove()).code).toBe(0);
  });
});

describe.each(["python", "go"])("examples/platform-teams-%s with a wrong team in stack config", (language) => {
  it("is refused before anything is declared, naming the field, without a stack trace", async () => {
    const before = await organizationIds(f.api);
    const stack = await f.stack(join(EXAMPLES, `platform-teams-${language}`), "dev");
    appendFileSync(join(stack.cwd, "Pulumi.yaml"), NATIVE_PLUGIN_YAML);
    await PREPARE[language]!(stack.cwd);
    await stack.setConfigObject("teams", [{ name: "storefront", owner: "lead@example.com", monthlyBudget: -5 }]);
    const preview = await stack.run(["preview"]);
    const said = preview.stdout + preview.stderr;
    expect(preview.code).not.toBe(0);
    expect(said).toContain("teams.0.monthlyBudget: must be a number > 0");
    // The message alone, no stack trace. Go's SDK exits 32 after logging it and the host bails quietly; Python's
    // exec script exits 1 after a pulumi.RunError, so the host adds "program exited with non-zero exit code: 1",
    // as the official host does.
    expect(said).not.toMatch(/Traceback|goroutine/);
    if (language === "go") expect(said).not.toMatch(/non-zero exit code/);
    expect(await organizationIds(f.api)).toEqual(before);
    expect((await stack.remove()).code).toBe(0);
  });
});

/**
 * Issue 33 item 8: when the provider refuses its configuration the engine cancels the run and shows the provider's
 * message; the program is then ended by our language host, which interrupted it with SIGINT, and Python printed two
 * KeyboardInterrupt tracebacks (about 21 lines from pulumi-language-python-exec) above that message. Pulumi's own
 * hosts kill the program; ours now do too. Go, the other host on the same code, is held to it once (a Go program is
 * compiled at every command).
 */
const WRONG_URL = {
  name: "a wrong cloudcost:apiUrl",
  stack: "bad-url",
  config: { key: "cloudcost:apiUrl", value: "ftp://127.0.0.1/api/v1" },
  says: "cloudcost:apiUrl",
};
const UNKNOWN_KEY = {
  name: "an unknown cloudcost key",
  stack: "bad-key",
  config: { key: "cloudcost:apiUrll", value: "http://127.0.0.1/api/v1" },
  says: "apiUrll value {http://127.0.0.1/api/v1} has a problem: is not a setting of the cloudcost provider",
};
const BAD_CONFIG = [
  { language: "python", ...WRONG_URL, commands: [["preview"], ["up", "--yes", "--skip-preview"]] },
  { language: "python", ...UNKNOWN_KEY, commands: [["preview"], ["up", "--yes", "--skip-preview"]] },
  { language: "go", ...WRONG_URL, commands: [["preview"]] },
];
describe("a configuration error in a program of another language", () => {
  it.each(BAD_CONFIG)(
    "$language, $name: the user sees the provider's message and no traceback, and nothing is created",
    async ({ language, stack: stackName, config, says, commands }) => {
      const before = await organizationIds(f.api);
      const stack = await f.stack(join(EXAMPLES, `quickstart-${language}`), stackName, [config]);
      appendFileSync(join(stack.cwd, "Pulumi.yaml"), NATIVE_PLUGIN_YAML);
      await PREPARE[language]!(stack.cwd);
      for (const command of commands) {
        const run = await stack.run(command);
        const said = run.stdout + run.stderr;
        expect([command[0], run.code === 0, said]).toEqual([command[0], false, expect.stringContaining(says)]);
        const noise = said.split("\n").filter((line) => /Traceback|KeyboardInterrupt|goroutine|signal: |exit code/.test(line));
        expect([command[0], noise]).toEqual([command[0], []]);
      }
      expect(await organizationIds(f.api)).toEqual(before);
      expect((await stack.remove()).code).toBe(0);
    },
  );
});
