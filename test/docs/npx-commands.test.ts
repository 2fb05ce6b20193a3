/**
 * Issue 33 item 3: every `npx …` command the repository's Markdown prints runs as printed and resolves only to
 * the package it means. Ours name their scoped package (`npx --package @cloudcost/pulumi cloudcost-pulumi …`): a
 * bare `npx cloudcost-pulumi` asks the public registry for the unscoped name wherever the command is not
 * installed, and anyone may own that name. Each of ours runs from the checkout, in the folder its code block
 * reaches, with the registry pointed at a closed loopback port: the command is found locally or the run
 * fails. (From a project that installed our packages from a registry: test/registry.) Needs `npm run build`.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { declaredDependencies, ourCommands, packageName, printedNpxCommands } from "./npx-commands";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

const REPO = resolve(__dirname, "..", "..");
const printed = printedNpxCommands(REPO);
const ours = ourCommands(REPO);

/** How a printed command is checked: its place, and what is wrong with it (empty when nothing is). */
function verdict(c: (typeof printed)[number]): string {
  const where = `${c.file}:${c.line} \`${c.command}\``;
  const owner = ours.get(c.bin);
  if (owner !== undefined) {
    if (c.packages.length !== 1 || packageName(c.packages[0]!) !== owner)
      return `${where}: name its package: npx --package ${owner} ${c.bin}`;
    return "";
  }
  // A third-party tool: found in the checkout's node_modules/.bin after `npm ci`, or a package a package.json
  // of the repository declares (so the name is the tool we mean, not one npx guesses).
  const named = c.packages.map(packageName);
  if (named.length > 0)
    return named.every((n) => declaredDependencies(REPO).has(n)) ? "" : `${where}: ${named.join(", ")} is not a dependency of ours`;
  if (existsSync(join(REPO, "node_modules", ".bin", c.bin))) return "";
  return declaredDependencies(REPO).has(c.bin) ? "" : `${where}: \`${c.bin}\` is neither installed by npm ci nor a dependency we declare`;
}

function run(args: string[], cwd: string): Promise<{ code: number; out: string }> {
  // A closed port as the registry: a command npx does not find locally fails instead of being downloaded.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  Object.assign(env, { npm_config_registry: "http://127.0.0.1:9/", npm_config_fetch_retries: "0", npm_config_update_notifier: "false" });
  return new Promise((done) =>
    execFile("npx", args, { cwd, env, timeout: START_TIMEOUT_MS }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, out: `${stdout}${stderr}` }),
    ),
  );
}

describe("npx commands in the Markdown", () => {
  it("are found, ours among them", () => {
    expect(printed.length).toBeGreaterThan(20);
    expect(new Set(printed.filter((c) => ours.has(c.bin)).map((c) => c.bin))).toEqual(
      new Set(["cloudcost-pulumi", "cloudcost-sandbox", "cloudcost-policies"]),
    );
  });

  it("name our scoped package for our commands, and only tools we install or declare otherwise", () => {
    expect(printed.map(verdict).filter(Boolean)).toEqual([]);
  });

  it("each of our packages' commands is a committed file, so npm links it at install time (before any build)", () => {
    for (const [bin, pkg] of ours) {
      const folder = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).workspaces.find(
        (ws: string) => JSON.parse(readFileSync(join(REPO, ws, "package.json"), "utf8")).name === pkg,
      ) as string;
      const target = (JSON.parse(readFileSync(join(REPO, folder, "package.json"), "utf8")) as { bin: Record<string, string> }).bin[bin]!;
      expect({ bin, committed: existsSync(join(REPO, folder, target)) && !target.startsWith("dist/") }).toEqual({ bin, committed: true });
    }
  });

  it("the repository's own package takes no name of a command (npx would take it for the package to run)", () => {
    const root = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { name: string };
    expect(ours.has(root.name)).toBe(false);
  });

  it("ours run from the checkout as printed, in the folder their block reaches, without asking a registry", async () => {
    const distinct = new Map<string, (typeof printed)[number]>();
    for (const c of printed.filter((p) => ours.has(p.bin))) distinct.set(`${c.cwd} ${c.packages[0]} ${c.bin}`, c);
    expect(distinct.size).toBeGreaterThanOrEqual(2);
    for (const c of distinct.values()) {
      // As printed up to the command's own arguments, which are replaced by --help (serve would not end).
      const result = await run(["--package", c.packages[0]!, c.bin, "--help"], join(REPO, c.cwd));
      expect({ where: `${c.file}:${c.line} in ${c.cwd}`, code: result.code, usage: /Usage: /.test(result.out) }).toEqual({
        where: `${c.file}:${c.line} in ${c.cwd}`,
        code: 0,
        usage: true,
      });
    }
  });
});
