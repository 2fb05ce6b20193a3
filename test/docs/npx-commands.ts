import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";

/** One `npx …` command a Markdown file of the repository prints. */
export interface PrintedNpx {
  file: string;
  line: number;
  /** From `npx` to the end of the command on that line (a trailing backslash continuation left out). */
  command: string;
  /** The packages named with `--package`/`-p` (version ranges kept), in order. */
  packages: string[];
  /** The command npx runs. */
  bin: string;
  /** The folder, relative to the repository, it runs in: the repository root, changed by `cd` lines of its code block. */
  cwd: string;
}

/** Our commands: every `bin` of every workspace package, with the package that has it. */
export function ourCommands(repo: string): Map<string, string> {
  const root = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { workspaces: string[] };
  const out = new Map<string, string>();
  for (const ws of root.workspaces) {
    const pkg = JSON.parse(readFileSync(join(repo, ws, "package.json"), "utf8")) as { name: string; bin?: Record<string, string> };
    for (const bin of Object.keys(pkg.bin ?? {})) out.set(bin, pkg.name);
  }
  return out;
}

/**
 * The Markdown files whose commands users run: every tracked `.md` but the released sections of
 * CHANGELOG.md (a record of what was, not instructions).
 */
function markdownFiles(repo: string): { file: string; text: string }[] {
  const files = execFileSync("git", ["ls-files", "*.md"], { cwd: repo, encoding: "utf8" }).split("\n").filter(Boolean);
  return files.map((file) => {
    let text = readFileSync(join(repo, file), "utf8");
    if (file === "CHANGELOG.md") {
      const unreleased = text.indexOf("## [Unreleased]");
      const released = text.indexOf("\n## [", unreleased + 1);
      if (released > 0) text = text.slice(0, released);
    }
    return { file, text };
  });
}

const NPX = /\bnpx((?:\s+-{1,2}[a-z-]+(?:[= ](?!-)[^\s`)]+)?)*)\s+([@a-z0-9][\w./@^~-]*)([^`\n]*)/g;

/** Every `npx` command printed in the repository's Markdown, with the folder its code block has reached. */
export function printedNpxCommands(repo: string): PrintedNpx[] {
  const out: PrintedNpx[] = [];
  for (const { file, text } of markdownFiles(repo)) {
    let cwd = ".";
    let inBlock = false;
    text.split("\n").forEach((raw, i) => {
      if (/^\s*```/.test(raw)) {
        inBlock = !inBlock;
        cwd = ".";
        return;
      }
      const cd = /^\s*cd\s+(\S+)\s*$/.exec(raw);
      if (inBlock && cd) cwd = posix.normalize(posix.join(cwd, cd[1]!));
      for (const m of raw.matchAll(NPX)) {
        const options = m[1]!.trim().split(/\s+|=/).filter(Boolean);
        const packages: string[] = [];
        options.forEach((o, k) => {
          if ((o === "--package" || o === "-p") && options[k + 1]) packages.push(options[k + 1]!);
        });
        // `(cd DIR && npx …)`: that line runs in DIR.
        const sub = /\(cd\s+(\S+)\s+&&\s+npx/.exec(raw);
        const here = sub ? posix.normalize(posix.join(cwd, sub[1]!)) : cwd;
        const command = `npx${m[1]} ${m[2]}${m[3]}`.replace(/\s*\\$/, "").replace(/\)\s*$/, "");
        out.push({ file, line: i + 1, command, packages, bin: m[2]!, cwd: here });
      }
    });
  }
  return out;
}

/** The package name of a `--package` spec (`tsx@^4`, `@cloudcost/pulumi@0.1.0` → the name). */
export const packageName = (spec: string): string => spec.replace(/^(@?[^@]+)@.*$/, "$1");

/** Every package name a package.json of the repository (root, workspaces, examples) depends on. */
export function declaredDependencies(repo: string): Set<string> {
  const files = execFileSync("git", ["ls-files", "package.json", "*/package.json"], { cwd: repo, encoding: "utf8" })
    .split("\n")
    .filter((f) => f && existsSync(join(repo, f)));
  const names = new Set<string>();
  for (const f of files) {
    const pkg = JSON.parse(readFileSync(join(repo, f), "utf8")) as Record<string, Record<string, string> | undefined>;
    for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"])
      for (const name of Object.keys(pkg[field] ?? {})) names.add(name);
  }
  return names;
}
