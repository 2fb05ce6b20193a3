/**
 * Issue 33 item 4, the native door: each cost function of the plugin with each filter field, invoked by a YAML
 * program (`fn::invoke`) and by a Python program (the generated SDK, `get_cost_*_output`) through the real CLI,
 * answers what the API answers for the same query parameters. The functions used to hand their arguments to the
 * client as they came, top level, where the client reads only `filters`: every filter but `groupId` was ignored and
 * the answer was the organization's total. The generated TypeScript SDK (`@cloudcost/pulumi-native`, sdk/nodejs compiled
 * as its `npm run build` does) and Go SDK (sdk/go, by a `replace`) are held to the same answers, each by one program.
 * The dynamic door: test/provider/cost-filters.test.ts, on the same cases.
 */
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  COST_FUNCTIONS,
  FILTER_WINDOW,
  apiAnswer,
  figureOf,
  filterCases,
  type CostFunction,
  type FilterCase,
} from "../provider/cost-filter-cases";
import { EXAMPLES, NATIVE_PLUGIN_YAML, REPO, compileGoProgram, expectSuccess, pythonEnvironment, useEngineFixture } from "./support";

const f = useEngineFixture();
const FUNCTIONS = Object.keys(COST_FUNCTIONS) as CostFunction[];

/** The figure `figureOf` compares, as a property path of the function's result. */
const FIGURE: Record<CostFunction, string> = {
  getCostSummary: "total",
  getCostByService: "total",
  getCostByDay: "total",
  getCostForecast: "total",
  getCostComparison: "change",
};

let cases: FilterCase[];
/** Output name → the API's figure for that function and case. */
const expected: Record<string, number> = {};
let venv: string | undefined;
const folders: string[] = [];

beforeAll(async () => {
  const [account] = await (async () => {
    const all = [];
    for await (const a of f.api.listAccounts()) all.push(a);
    return all;
  })();
  cases = filterCases(account!.accountId);
  for (const fn of FUNCTIONS) {
    const unfiltered = figureOf(fn, await apiAnswer(f.sandbox.baseUrl, f.token, fn, {}));
    for (const c of cases) {
      const figure = figureOf(fn, await apiAnswer(f.sandbox.baseUrl, f.token, fn, c.query));
      // Each case filters: an ignored filter would otherwise pass unseen.
      expect([fn, c.name, figure]).not.toEqual([fn, c.name, unfiltered]);
      expected[outputName(fn, c)] = figure;
    }
  }
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const outputName = (fn: CostFunction, c: FilterCase) => `${fn}_${c.name}`;

/** A program folder with Pulumi.yaml (HEADER, then the plugin from native/bin) and FILES. */
function project(header: string, files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-functions-"));
  folders.push(dir);
  writeFileSync(join(dir, "Pulumi.yaml"), header + NATIVE_PLUGIN_YAML);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/**
 * The stack outputs of the program in DIR after `pulumi up`. The program only invokes functions, so there is
 * nothing to destroy: the workspace (backend and stacks) goes with the fixture, and no CLI run is spent on it.
 */
async function outputsOf(dir: string, name: string, prepare?: (cwd: string) => void): Promise<Record<string, unknown>> {
  const stack = await f.stack(dir, name);
  prepare?.(stack.cwd);
  expectSuccess(await stack.up());
  return stack.outputs();
}

test("YAML: fn::invoke of every cost function with every filter field answers as the API does", async () => {
  const variables: string[] = [];
  const outputs: string[] = [];
  for (const fn of FUNCTIONS)
    for (const c of cases) {
      const name = outputName(fn, c);
      const args = JSON.stringify({ ...FILTER_WINDOW, ...c.query });
      variables.push(`  ${name}:`, "    fn::invoke:", `      function: cloudcost:index:${fn}`, `      arguments: ${args}`);
      outputs.push(`  ${name}: \${${name}.${FIGURE[fn]}}`);
    }
  const program = ["name: function-filters-yaml", "runtime: yaml", "variables:", ...variables, "outputs:", ...outputs, ""].join("\n");
  expect(await outputsOf(project(program), "yaml")).toEqual(expected);
});

/** Python's names for the functions and their arguments (the generated SDK's). */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

test("Python: get_cost_*_output of every cost function with every filter field answers as the API does", async () => {
  const lines = ["import pulumi", "import pulumi_cloudcost as cloudcost", ""];
  for (const fn of FUNCTIONS)
    for (const c of cases) {
      const args = Object.entries(c.query).map(([k, v]) => `${snake(k)}=${JSON.stringify(v)}`);
      const call = `cloudcost.${snake(fn)}_output(from_="${FILTER_WINDOW.from}", to="${FILTER_WINDOW.to}", ${args.join(", ")})`;
      lines.push(`pulumi.export("${outputName(fn, c)}", ${call}.${FIGURE[fn]})`);
    }
  const header = ["name: function-filters-python", "runtime:", "  name: python", "  options:", "    virtualenv: venv", ""].join("\n");
  venv ??= await pythonEnvironment();
  const linked = venv;
  const dir = project(header, { "__main__.py": lines.join("\n") + "\n" });
  expect(await outputsOf(dir, "python", (cwd) => symlinkSync(linked, join(cwd, "venv"), "dir"))).toEqual(expected);
});

/**
 * sdk/nodejs as its `npm run build` leaves it (tsc into bin/, the manifest copied beside the output), compiled from a
 * copy into a temporary folder and resolving @pulumi/pulumi from the repository (as test/engine/import-programs does).
 */
function typescriptSdk(): string {
  const dir = mkdtempSync(join(tmpdir(), "cloudcost-ts-sdk-"));
  folders.push(dir);
  const sdk = join(dir, "sdk");
  cpSync(join(REPO, "sdk", "nodejs"), sdk, { recursive: true, filter: (src) => !/[/\\](bin|node_modules)$/.test(src) });
  symlinkSync(join(REPO, "node_modules"), join(sdk, "node_modules"), "dir");
  execFileSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", sdk], { stdio: "pipe" });
  cpSync(join(sdk, "package.json"), join(sdk, "bin", "package.json"));
  return sdk;
}

test("TypeScript: get*Output of @cloudcost/pulumi-native for every cost function with every filter field answers as the API does", async () => {
  const sdk = typescriptSdk();
  const lines = ['import * as cloudcost from "@cloudcost/pulumi-native";', ""];
  for (const fn of FUNCTIONS)
    for (const c of cases) {
      const args = JSON.stringify({ ...FILTER_WINDOW, ...c.query });
      lines.push(`export const ${outputName(fn, c)} = cloudcost.${fn}Output(${args}).${FIGURE[fn]};`);
    }
  const dir = project("name: function-filters-ts\nruntime: nodejs\n", {
    "index.ts": lines.join("\n") + "\n",
    "package.json": JSON.stringify({ name: "function-filters-ts", main: "index.ts" }),
  });
  // What `pulumi new typescript` writes (examples/quickstart has the same).
  copyFileSync(join(EXAMPLES, "quickstart", "tsconfig.json"), join(dir, "tsconfig.json"));
  // The copy's node_modules is the repository's (a link); this program's holds @pulumi and the SDK, as npm installs them.
  const install = (cwd: string) => {
    unlinkSync(join(cwd, "node_modules"));
    mkdirSync(join(cwd, "node_modules", "@cloudcost"), { recursive: true });
    symlinkSync(join(REPO, "node_modules", "@pulumi"), join(cwd, "node_modules", "@pulumi"), "dir");
    symlinkSync(sdk, join(cwd, "node_modules", "@cloudcost", "pulumi-native"), "dir");
  };
  expect(await outputsOf(dir, "typescript", install)).toEqual(expected);
});

/** Go's names for the arguments and results (the generated SDK's exported fields and methods). */
const exported = (name: string) => name[0]!.toUpperCase() + name.slice(1);
/** A Go string literal (a JSON string is one for these ASCII values). */
const goString = (value: string) => JSON.stringify(value);

test("Go: cloudcost.Get*Output of sdk/go for every cost function with every filter field answers as the API does", async () => {
  const body: string[] = [];
  for (const fn of FUNCTIONS)
    for (const c of cases) {
      const fields = [`From: pulumi.String(${goString(FILTER_WINDOW.from)})`, `To: pulumi.String(${goString(FILTER_WINDOW.to)})`];
      for (const [key, values] of Object.entries(c.query))
        fields.push(`${exported(key)}: pulumi.ToStringArray([]string{${(values as string[]).map(goString).join(", ")}})`);
      const call = `cloudcost.${exported(fn)}Output(ctx, cloudcost.${exported(fn)}OutputArgs{${fields.join(", ")}})`;
      body.push(`\t\tctx.Export(${goString(outputName(fn, c))}, ${call}.${exported(FIGURE[fn])}())`);
    }
  const main = [
    "package main",
    "",
    "import (",
    '\t"github.com/cloudcost/cloudcost-pulumi/sdk/go/cloudcost"',
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
    ...body,
    "\t\treturn nil",
    "\t})",
    "}",
    "",
  ].join("\n");
  const dir = project("name: function-filters-go\nruntime: go\n", { "main.go": main });
  // The quickstart's go.mod and go.sum (sdk/v3 at the CLI's release, every checksum known), on this checkout's sdk/go.
  for (const file of ["go.mod", "go.sum"]) copyFileSync(join(EXAMPLES, "quickstart-go", file), join(dir, file));
  await promisify(execFile)(
    "go",
    [
      "mod",
      "edit",
      "-module=example.com/function-filters",
      `-replace=github.com/cloudcost/cloudcost-pulumi/sdk/go=${join(REPO, "sdk", "go")}`,
    ],
    { cwd: dir },
  );
  await compileGoProgram(dir);
  expect(await outputsOf(dir, "go")).toEqual(expected);
});
