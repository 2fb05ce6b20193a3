/**
 * The TypeScript code blocks of the repository's Markdown files, and a type check of them against the real
 * (built) packages — what a user gets who pastes a block into a file of a Pulumi program.
 *
 * A block is a fenced block whose info string is `ts` or `typescript` (the resource pages write the native SDK's
 * examples as `typescript`, the info string Pulumi's schema examples use). A block that is
 * deliberately not a whole program says so on the line right before its fence:
 * `<!-- fragment: why it cannot compile on its own -->`; it is listed, not compiled.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

export interface CodeBlock {
  /** Repository-relative path of the Markdown file. */
  file: string;
  /** 1-based line of the block's first code line. */
  line: number;
  code: string;
  /** The reason given in a `<!-- fragment: … -->` marker; undefined for a block that must compile. */
  fragment: string | undefined;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const FRAGMENT = /^<!--\s*fragment:\s*(.*?)\s*-->$/;

/** Every `ts`/`typescript` block of one Markdown text. */
export function codeBlocksOf(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(`${indent}${fence}`) && l.trim() === fence);
    const close = end === -1 ? lines.length : end;
    if (/^(ts|typescript)$/i.test(info!)) {
      const before = lines
        .slice(0, i)
        .reverse()
        .find((l) => l.trim() !== "");
      blocks.push({
        file,
        line: i + 2,
        code: lines.slice(i + 1, close).join("\n"),
        fragment: before === undefined ? undefined : FRAGMENT.exec(before.trim())?.[1],
      });
    }
    i = close;
  }
  return blocks;
}

/** The Markdown files git knows of (committed or staged), repository-relative. */
export function markdownFiles(repo: string): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], { cwd: repo, encoding: "utf8" })
    .split("\n")
    .filter((f) => f !== "");
}

export function allCodeBlocks(repo: string): CodeBlock[] {
  return markdownFiles(repo).flatMap((file) => codeBlocksOf(file, readFileSync(join(repo, file), "utf8")));
}

/** One problem, placed at its line in the Markdown file. */
export interface BlockDiagnostic {
  where: string;
  message: string;
}

/**
 * Type-checks each block as its own CommonJS module (a Pulumi TypeScript program: no top-level await) in a
 * folder under `workDir`, which must lie inside the repository so `@cloudcost/*` and `@pulumi/*` resolve
 * to the workspace packages (and PATHS maps other module names). One compiler run for all blocks. Returns every
 * diagnostic, placed in its Markdown file.
 */
export function typeCheck(
  blocks: readonly CodeBlock[],
  workDir: string,
  /** Module names resolved elsewhere (`paths`): the generated SDK `@cloudcost/pulumi-native`, which is no workspace package. */
  paths: Record<string, string[]> = {},
): BlockDiagnostic[] {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const byPath = new Map<string, CodeBlock>();
  blocks.forEach((block, n) => {
    const path = join(workDir, `block-${n}.ts`);
    // A block without import or export would be a script sharing one global scope with the others.
    const isModule = /^\s*(import|export)\s/m.test(block.code);
    writeFileSync(path, isModule ? block.code : `${block.code}\nexport {};\n`);
    byPath.set(path, block);
  });
  const program = ts.createProgram([...byPath.keys()], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    lib: ["lib.es2022.d.ts"],
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    paths,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const block = d.file ? byPath.get(d.file.fileName) : undefined;
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!block || !d.file || d.start === undefined) return { where: d.file?.fileName ?? "(program)", message: `TS${d.code}: ${message}` };
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return { where: `${block.file}:${block.line + line}`, message: `TS${d.code}: ${message}` };
  });
}
