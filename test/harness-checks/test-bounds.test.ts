import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

/**
 * A test's bound guards against a hang, never a verdict on speed (issue 39). It is one, set in jest.config.js: a bound a
 * file set itself sat below the steps it waited for, and a loaded machine failed tests that were only slow (a flake hunt:
 * a test of nine `pulumi` commands at 300 s in all three runs; a cold CI run: the floor's install hook at 200 s and the
 * policy host's at 60 s, while OpenTofu compiled beside them). Each child process a test starts has a hang guard of its
 * own, which names what hung: none shorter than testkit's START_TIMEOUT_MS.
 */
const REPO = join(__dirname, "..", "..");
const HOOKS = new Set(["it", "test", "beforeAll", "beforeEach", "afterAll", "afterEach"]);
/**
 * The files that may set their own bounds, each derived from the hang guards of the commands its tests wait for in turn,
 * and longer than jest.config's for some tests: the release builds every artifact cold (an hour); a registry install
 * test first waits for every install its beforeAll queued, three at a time.
 */
const DERIVED = ["test/release/release.test.ts", "test/registry/install-from-registry.test.ts"];

/** Every TypeScript file under test/. */
function testFiles(dir = join(REPO, "test")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Each call in `file` that `found` names (`file:line what`), or nothing. */
function scan(file: string, found: (node: ts.Node, source: ts.SourceFile) => string | undefined): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    const what = found(node, source);
    if (what) out.push(`${relative(REPO, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A test or hook call that passes a bound after its function: `name(…, bound)`. */
function ownBound(node: ts.Node, source: ts.SourceFile): string | undefined {
  if (!ts.isCallExpression(node)) return undefined;
  const name = node.expression.getText(source).split(/[.(]/)[0]!;
  const fn = node.arguments.findIndex((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
  if (!HOOKS.has(name) || fn < 0 || node.arguments.length <= fn + 1) return undefined;
  return `${name}(…, ${node.arguments[fn + 1]!.getText(source)})`;
}

/** An option `timeout: N` (a child process's hang guard) with a number below START_TIMEOUT_MS. */
function shortGuard(node: ts.Node, source: ts.SourceFile): string | undefined {
  if (!ts.isPropertyAssignment(node) || node.name.getText(source) !== "timeout") return undefined;
  if (!ts.isNumericLiteral(node.initializer)) return undefined;
  return Number(node.initializer.text) < START_TIMEOUT_MS ? node.getText(source) : undefined;
}

/** jest.config.js's testTimeout as a run with `env` reads it. */
function configuredBound(env: Record<string, string>): number {
  const { CLOUDCOST_ENGINE: _engine, CLOUDCOST_TERRAFORM: _terraform, ...rest } = process.env;
  const out = execFileSync(process.execPath, ["-p", `require(${JSON.stringify(join(REPO, "jest.config.js"))}).testTimeout`], {
    env: { ...rest, ...env },
    encoding: "utf8",
  });
  return Number(out.trim());
}

const files = testFiles();

describe("a test's bound", () => {
  it("is set in one place: no test or hook passes its own, but in the files that derive theirs from their commands", () => {
    expect(files.length).toBeGreaterThan(100);
    const own = files.filter((file) => !DERIVED.includes(relative(REPO, file))).flatMap((file) => scan(file, ownBound));
    expect(own).toEqual([]);
    // The rule can fail: the derived bounds are found.
    expect(DERIVED.flatMap((file) => scan(join(REPO, file), ownBound)).length).toBeGreaterThan(DERIVED.length);
  });

  it("is the same for every run, and holds several child processes' hang guards in turn", () => {
    const bound = configuredBound({});
    expect(configuredBound({ CLOUDCOST_ENGINE: "1" })).toBe(bound);
    expect(configuredBound({ CLOUDCOST_TERRAFORM: "1" })).toBe(bound);
    expect(bound).toBeGreaterThanOrEqual(6 * START_TIMEOUT_MS);
  });
});

describe("a child process's hang guard", () => {
  it("is never shorter than testkit's START_TIMEOUT_MS", () => {
    expect(files.flatMap((file) => scan(file, shortGuard))).toEqual([]);
  });
});
