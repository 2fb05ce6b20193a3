import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { SourceLocation } from "../verdict/verdict";

/*
 * Issue 40: where each `resource "TYPE" "NAME"` block of a configuration starts — the plan JSON carries no
 * positions. Parsed with tree-sitter's HCL grammar (the Terraform dialect, @tree-sitter-grammars/tree-sitter-hcl,
 * loaded as WebAssembly by web-tree-sitter: no native build on the user's machine), not with a regular
 * expression: heredocs, comments and strings that look like blocks are the parser's business.
 */

/** tree-sitter's node, the part used here (web-tree-sitter's own types are ESM-only declarations). */
interface SyntaxNode {
  type: string;
  text: string;
  startPosition: { row: number; column: number };
  namedChildren: SyntaxNode[];
  descendantsOfType(type: string): SyntaxNode[];
}

interface TreeSitter {
  Parser: { init(): Promise<void>; new (): { setLanguage(language: unknown): void } };
  Language: { load(path: string): Promise<unknown> };
}

let parser: Promise<{ parse(text: string): { rootNode: SyntaxNode } | null }> | undefined;

async function hclParser() {
  parser ??= (async () => {
    const { Parser, Language } = require("web-tree-sitter") as TreeSitter;
    await Parser.init();
    const language = await Language.load(require.resolve("@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm"));
    const p = new Parser();
    p.setLanguage(language);
    return p as unknown as { parse(text: string): { rootNode: SyntaxNode } | null };
  })();
  return parser;
}

const unquote = (node: SyntaxNode | undefined) => node?.text.replace(/^"|"$/g, "");

/**
 * The start of every resource block in the `.tf` files of DIR (the root module; not its subfolders), by
 * `TYPE.NAME`, with the file relative to ROOT (the repository, for code scanning).
 */
export async function resourceBlocks(dir: string, root: string = dir): Promise<Map<string, SourceLocation>> {
  const out = new Map<string, SourceLocation>();
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".tf"))
    .sort();
  if (files.length === 0) return out;
  const p = await hclParser();
  for (const file of files) {
    const tree = p.parse(readFileSync(join(dir, file), "utf8"));
    for (const block of tree?.rootNode.descendantsOfType("block") ?? []) {
      const [kind, type, name] = block.namedChildren;
      if (kind?.type !== "identifier" || kind.text !== "resource" || !type || !name) continue;
      const key = `${unquote(type)}.${unquote(name)}`;
      if (!out.has(key))
        out.set(key, {
          file: relative(root, join(dir, file)).split("\\").join("/"),
          line: block.startPosition.row + 1,
          column: block.startPosition.column + 1,
        });
    }
  }
  return out;
}

/** The block of a root-module ADDRESS (`cloudcost_budget_alert.b["x"]` → `cloudcost_budget_alert.b`); a module's resources have none here. */
export function blockOf(address: string, blocks: ReadonlyMap<string, SourceLocation>): SourceLocation | undefined {
  if (address.startsWith("module.")) return undefined;
  return blocks.get(address.replace(/\[[^\]]*\]$/, ""));
}
