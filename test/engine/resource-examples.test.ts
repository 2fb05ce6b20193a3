/**
 * Issue 34 item 6: every resource page's example in every language works. The native TypeScript blocks compile in
 * test/docs (against sdk/nodejs's declarations); here, with the real CLI, our language hosts and the plugin from
 * native/bin against a sandbox: each page's Python and YAML programs preview, creating the same resources as the
 * page's YAML declares; its Go programs, one package each in one module on sdk/go (a replace), pass `go vet`
 * (one invocation: a Go preview would compile each program for minutes). The blocks are read as the schema
 * generator reads them (native/src/schema/docs-text.ts), so they are also what the schema's examples hold.
 */
import { execFile } from "node:child_process";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { goProgramBuildFlags } from "@cloudcost/testkit";
import { docsText, type DocsExample, type ExampleLanguage } from "@cloudcost/pulumi-resource-cloudcost/dist/schema/docs-text";
import { EXAMPLES, GO_COMPILE_TIMEOUT_MS, NATIVE_PLUGIN_YAML, REPO, changes, pythonEnvironment, useEngineFixture } from "./support";

const run = promisify(execFile);
const f = useEngineFixture();
const KINDS = ["CloudGroup", "BudgetAlert", "ScheduledReport"] as const;

let work: string;
let venv: string | undefined;
beforeAll(() => void (work = mkdtempSync(join(tmpdir(), "cloudcost-doc-examples-"))));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function example(kind: string, language: ExampleLanguage): DocsExample {
  const found = docsText(kind as (typeof KINDS)[number]).examples.find((e) => e.language === language);
  if (!found) throw new Error(`provider/docs has no ${language} example for ${kind}`);
  return found;
}

/** The native type tokens the page's YAML program declares, sorted: what every language's program must create. */
function declaredTypes(kind: string): string[] {
  return [...example(kind, "yaml").code.matchAll(/^\s+type: cloudcost:(\w+)$/gm)].map((m) => `cloudcost:index:${m[1]}`).sort();
}

/** A project folder with FILES, its Pulumi.yaml naming RUNTIME and the plugin in native/bin. */
function project(name: string, runtime: string, files: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "Pulumi.yaml"), `name: ${name}\n${runtime}${NATIVE_PLUGIN_YAML}`);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

async function expectPreviewCreates(dir: string, kind: string, prepare: (cwd: string) => void = () => undefined): Promise<void> {
  const stack = await f.stack(dir, "docs");
  prepare(stack.cwd);
  const { code, digest, stderr } = await stack.previewJson();
  expect([code, stderr]).toEqual([0, ""]);
  const created = changes(digest)
    .filter((s) => s.newState?.type?.startsWith("cloudcost:index:"))
    .map((s) => [s.op, s.newState!.type]);
  expect(created.sort()).toEqual(declaredTypes(kind).map((type) => ["create", type]));
  expect((await stack.remove()).code).toBe(0);
}

describe.each(KINDS)("%s's page: the example in every language", (kind) => {
  it("YAML: previews, creating what it declares", async () => {
    const dir = project(`docs-${kind.toLowerCase()}-yaml`, "runtime: yaml\n", {});
    appendFileSync(join(dir, "Pulumi.yaml"), `\n${example(kind, "yaml").code}`);
    await expectPreviewCreates(dir, kind);
  });

  it("Python: previews with pulumi_cloudcost, creating what the YAML declares", async () => {
    venv ??= await pythonEnvironment();
    const dir = project(`docs-${kind.toLowerCase()}-python`, "runtime:\n  name: python\n  options:\n    virtualenv: venv\n", {
      "__main__.py": example(kind, "python").code,
    });
    await expectPreviewCreates(dir, kind, (cwd) => symlinkSync(venv!, join(cwd, "venv"), "dir"));
  });
});

test("Go: every page's program passes `go vet` against sdk/go", async () => {
  const module = join(work, "go-examples");
  mkdirSync(module);
  // The quickstart's go.mod and go.sum: sdk/v3 at the release the CLI is built from, every checksum known.
  for (const file of ["go.mod", "go.sum"]) copyFileSync(join(EXAMPLES, "quickstart-go", file), join(module, file));
  const env = { ...process.env, GOWORK: "off", GOFLAGS: "-mod=mod -buildvcs=false" };
  await run(
    "go",
    ["mod", "edit", "-module=example.com/doc-examples", `-replace=github.com/cloudcost/cloudcost-pulumi/sdk/go=${join(REPO, "sdk", "go")}`],
    {
      cwd: module,
      env,
    },
  );
  for (const kind of KINDS) {
    mkdirSync(join(module, kind.toLowerCase()));
    writeFileSync(join(module, kind.toLowerCase(), "main.go"), example(kind, "go").code);
  }
  // With the flags our Go language host builds a program with: vet then reads the Pulumi SDK's packages from Go's
  // build cache (compiled once, with the CLI) instead of compiling them again (~130 CPU s on a cold cache).
  const vetted = await run("go", ["vet", ...goProgramBuildFlags(), "./..."], { cwd: module, env, timeout: GO_COMPILE_TIMEOUT_MS }).then(
    () => "",
    (err: { stderr?: string }) => err.stderr ?? String(err),
  );
  expect(vetted).toBe("");
  expect(readFileSync(join(module, "go.mod"), "utf8")).toContain(`=> ${join(REPO, "sdk", "go")}`);
});
