import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/**
 * The suites that drive the real CLIs (test/engine, test/terraform) run many commands in one test, each with a
 * hang guard of its own. Their tests' bound is one, set in jest.config.js for runs with CLOUDCOST_ENGINE or
 * CLOUDCOST_TERRAFORM: a bound a file sets itself (`it(name, fn, 300_000)`) can sit below the steps it waits for, and
 * then a loaded machine fails a test that was only slow (issue 39's flake hunt: nine commands under 300 s, failed in
 * all three runs).
 */
const REPO = join(__dirname, "..", "..");
const SUITES = ["test/engine", "test/terraform"];
const HOOKS = new Set(["it", "test", "beforeAll", "beforeEach", "afterAll", "afterEach"]);

/** `file:line name(…, bound)` for every test or hook call in `file` that passes a bound after its function. */
function ownBounds(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = node.expression.getText(source).split(/[.(]/)[0]!;
      const fn = node.arguments.findIndex((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));
      if (HOOKS.has(name) && fn >= 0 && node.arguments.length > fn + 1) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(`${relative(REPO, file)}:${line} ${name}(…, ${node.arguments[fn + 1]!.getText(source)})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
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

describe("the real-CLI suites' bound on a test", () => {
  it("is set in one place: no test or hook in test/engine or test/terraform passes its own", () => {
    const files = SUITES.flatMap((dir) =>
      readdirSync(join(REPO, dir))
        .filter((name) => name.endsWith(".ts"))
        .map((name) => join(REPO, dir, name)),
    );
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap(ownBounds)).toEqual([]);
  });

  it("is longer with CLOUDCOST_ENGINE or CLOUDCOST_TERRAFORM than jest's bound for the rest", () => {
    const rest = configuredBound({});
    expect(configuredBound({ CLOUDCOST_ENGINE: "1" })).toBeGreaterThanOrEqual(6 * rest);
    expect(configuredBound({ CLOUDCOST_TERRAFORM: "1" })).toBeGreaterThanOrEqual(6 * rest);
  });
});
