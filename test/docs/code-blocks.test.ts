/**
 * Issue 20 item 3: every `ts` code block in every README and doc page compiles against the real packages,
 * as a CommonJS Pulumi program would (no top-level await). Needs `npm run build` (the blocks import the
 * packages' built declarations, like a user's program does). Issue 34 item 6: the blocks on the native SDK
 * (`@cloudcost/pulumi-native`, every resource page's "in every language") compile against sdk/nodejs's
 * declarations, built here by its own tsconfig.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { allCodeBlocks, codeBlocksOf, typeCheck } from "./markdown-code-blocks";

const REPO = resolve(__dirname, "..", "..");
/** Inside the repository (ignored by git), so the blocks resolve the workspace packages from node_modules. */
const WORK = join(REPO, ".cache", `doc-blocks-${process.pid}`);
/** Fragments are the exception: each needs a reason, and there may be only a few. */
const MAX_FRAGMENTS = 3;

const blocks = allCodeBlocks(REPO);
/** sdk/nodejs's declarations (its tsconfig, into WORK): what `npm run build` there gives a program's type check. */
const SDK_TYPES = `${WORK}-sdk-nodejs`;

beforeAll(() => {
  execFileSync(
    process.execPath,
    [require.resolve("typescript/bin/tsc"), "-p", join(REPO, "sdk", "nodejs"), "--outDir", SDK_TYPES, "--emitDeclarationOnly"],
    { stdio: "pipe" },
  );
});

afterAll(() => {
  rmSync(WORK, { recursive: true, force: true });
  rmSync(`${WORK}-negative`, { recursive: true, force: true });
  rmSync(SDK_TYPES, { recursive: true, force: true });
});

describe("TypeScript code blocks in the Markdown files", () => {
  it("are found in the READMEs, the docs site's pages and the provider's resource pages", () => {
    const files = new Set(blocks.map((b) => b.file));
    for (const file of [
      "README.md",
      "docs/guide/pulumi-typescript.md",
      "docs/recipes/adoption.md",
      "docs/recipes/move-to-native.md",
      "api/README.md",
      "provider/README.md",
      "provider/docs/cloud-group.md",
      "provider/docs/budget-alert.md",
      "provider/docs/scheduled-report.md",
    ]) {
      expect(files).toContain(file);
    }
  });

  it("all type-check as programs against the built packages", () => {
    const diagnostics = typeCheck(
      blocks.filter((b) => b.fragment === undefined),
      WORK,
      { "@cloudcost/pulumi-native": [join(SDK_TYPES, "index.d.ts")] },
    );
    expect(diagnostics.map((d) => `${d.where}: ${d.message}`)).toEqual([]);
  });

  it("mark fragments explicitly, with a reason, and only a few", () => {
    const fragments = blocks.filter((b) => b.fragment !== undefined);
    for (const f of fragments) expect(`${f.file}:${f.line} ${f.fragment}`).toMatch(/:\d+ \S.{9,}/);
    expect(fragments.length).toBeLessThanOrEqual(MAX_FRAGMENTS);
  });

  it("include each resource page's example on the native SDK, compiled (not a fragment)", () => {
    for (const page of ["cloud-group", "budget-alert", "scheduled-report"]) {
      const native = blocks.filter((b) => b.file === `provider/docs/${page}.md` && b.code.includes('from "@cloudcost/pulumi-native"'));
      expect(native.map((b) => b.fragment)).toEqual([undefined]);
    }
  });

  it("the provider README's first example is a complete program", () => {
    const first = blocks.find((b) => b.file === "provider/README.md");
    expect(first?.fragment).toBeUndefined();
    expect(first?.code).toMatch(/^import .* from "@cloudcost\/pulumi";$/m);
  });

  it("reject what a user's program would reject: top-level await, an unknown input, a missing import, a native SDK type error", () => {
    const bad = codeBlocksOf(
      "bad.md",
      [
        "```ts",
        'import * as cloudcost from "@cloudcost/pulumi";',
        "const spend = await cloudcost.getCostSummary(cloudcost.lastQuarter());",
        "```",
        "```typescript",
        'import { CloudGroup } from "@cloudcost/pulumi";',
        'new CloudGroup("g", { name: "G", members: [] });',
        "```",
        "```ts",
        'new BudgetAlert("a", { name: "A", amount: 1 });',
        "```",
        "```typescript",
        'import * as cloudcost from "@cloudcost/pulumi-native";',
        'new cloudcost.BudgetAlert("a", { name: "A", amount: 1, period: "monthly", thresholds: [{ percent: 80 }] });',
        "```",
      ].join("\n"),
    );
    const found = typeCheck(bad, `${WORK}-negative`, { "@cloudcost/pulumi-native": [join(SDK_TYPES, "index.d.ts")] });
    expect(found.map((d) => d.where)).toEqual(["bad.md:3", "bad.md:7", "bad.md:10", "bad.md:14"]);
    expect(found[0]!.message).toMatch(/cannot use 'await' at the top level/);
    expect(found[1]!.message).toMatch(/'members' does not exist/);
    expect(found[2]!.message).toMatch(/Cannot find name 'BudgetAlert'/);
    // The native SDK's types are really checked: a threshold without its required `basis`.
    expect(found[3]!.message).toMatch(/'basis' is missing/);
  });
});
