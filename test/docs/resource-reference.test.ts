/**
 * Issue 20 item 3: each resource's doc page (provider/docs/<kind>.md) is its full reference. Its Inputs table
 * lists exactly the properties of the resource's `…Args` interface, and its Outputs table every output the
 * class declares plus what every resource has (`id`, `organization`, `adoptId`) — read from the TypeScript
 * source, so a new input or output without a doc row fails here. Every page is linked from the README and
 * ships in the package's tarball.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";

const REPO = resolve(__dirname, "..", "..");
const PROVIDER = join(REPO, "provider");

const KINDS = [
  { kind: "CloudGroup", source: "cloud-group.ts", page: "docs/cloud-group.md" },
  { kind: "BudgetAlert", source: "budget-alert.ts", page: "docs/budget-alert.md" },
  { kind: "ScheduledReport", source: "scheduled-report.ts", page: "docs/scheduled-report.md" },
] as const;
/** Outputs every resource has that its class does not declare (README, "Outputs every resource has"). */
const COMMON_OUTPUTS = ["id", "organization", "adoptId"];

/** Property names of `<kind>Args` and the `declare readonly` outputs of class `<kind>` in one source file. */
function declared(kind: string, file: string): { inputs: string[]; outputs: string[] } {
  const source = ts.createSourceFile(file, readFileSync(join(PROVIDER, "src", file), "utf8"), ts.ScriptTarget.ES2022, true);
  const inputs: string[] = [];
  const outputs: string[] = [];
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === `${kind}Args`) {
      for (const m of node.members) if (m.name && ts.isIdentifier(m.name)) inputs.push(m.name.text);
    }
    if (ts.isClassDeclaration(node) && node.name?.text === kind) {
      for (const m of node.members) {
        const isDeclare = ts.canHaveModifiers(m) && ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.DeclareKeyword);
        if (ts.isPropertyDeclaration(m) && isDeclare && ts.isIdentifier(m.name)) outputs.push(m.name.text);
      }
    }
  });
  return { inputs, outputs };
}

/** The first-column names (`` `name` ``) of the table under a `## heading` of a Markdown page. */
function tableNames(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start === -1) return [];
  const rest = markdown.slice(start + heading.length + 5);
  const end = rest.search(/\n## /);
  const section = end === -1 ? rest : rest.slice(0, end);
  // Only the section's first table: `schedule`'s own field table follows the Inputs table.
  const table = /(^\|.*\n)+/m.exec(section)?.[0] ?? "";
  return [...table.matchAll(/^\|\s*`([A-Za-z]+)`\s*\|/gm)].map((m) => m[1]!);
}

describe.each(KINDS)("provider/$page", ({ kind, source, page }) => {
  const markdown = readFileSync(join(PROVIDER, page), "utf8");
  const code = declared(kind, source);

  it(`lists exactly the inputs of ${kind}Args`, () => {
    expect(code.inputs.length).toBeGreaterThan(3);
    expect(tableNames(markdown, "Inputs").sort()).toEqual([...code.inputs].sort());
  });

  it(`lists every output ${kind} declares, and the outputs every resource has`, () => {
    expect(code.outputs.length).toBeGreaterThan(3);
    expect(tableNames(markdown, "Outputs").sort()).toEqual([...new Set([...code.outputs, ...COMMON_OUTPUTS])].sort());
  });

  it("has an example program and an adopt block, and states its type token", () => {
    expect(markdown).toContain(`pulumi-nodejs:dynamic/cloudcost:${kind}`);
    expect(markdown).toMatch(/\n## Example\n\n```ts\n/);
    expect(markdown).toMatch(/\n## Adopt [^\n]*\n[\s\S]*adoptId: "[a-z]{3}_/);
  });

  it("is linked from the provider README", () => {
    expect(readFileSync(join(PROVIDER, "README.md"), "utf8")).toContain(`](${page})`);
  });
});

describe("the provider package's tarball", () => {
  it("holds every file the README and the doc pages link to relatively", () => {
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: PROVIDER, encoding: "utf8" }),
    ) as {
      files: { path: string }[];
    }[];
    const shipped = new Set(packed!.files.map((f) => f.path));
    for (const doc of ["README.md", ...KINDS.map((k) => k.page)]) {
      const text = readFileSync(join(PROVIDER, doc), "utf8");
      for (const [, target] of text.matchAll(/\]\((?!https?:|#)([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const path = join(doc, "..", target!).replace(/\\/g, "/");
        expect(`${doc} → ${path}`).toBe(`${doc} → ${shipped.has(path) ? path : `${path} (not in the tarball)`}`);
      }
    }
  });
});
