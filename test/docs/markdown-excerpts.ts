/**
 * Code blocks that show part of a tested file: a fenced block right after `<!-- excerpt: PATH -->` (PATH relative
 * to the repository) must be a run of consecutive lines of that file, so the block is exactly what the file's own
 * tests deploy (the Python, Go, YAML and HCL examples, which only the real CLIs can run).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface Excerpt {
  /** Repository-relative path of the Markdown file. */
  file: string;
  /** 1-based line of the block's first code line. */
  line: number;
  /** The fence's info string (`python`, `go`, `yaml`, `hcl`, …). */
  language: string;
  code: string;
  /** The file the marker names; undefined for a block without a marker. */
  source: string | undefined;
}

const FENCE = /^(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^<!--\s*excerpt:\s*(\S+)\s*-->$/;

/** Every fenced block of one Markdown text, with the excerpt marker before it, if any. */
export function fencedBlocksOf(file: string, markdown: string): Excerpt[] {
  const lines = markdown.split("\n");
  const blocks: Excerpt[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const [, fence, language] = open;
    const end = lines.findIndex((l, j) => j > i && l.trim() === fence);
    const close = end === -1 ? lines.length : end;
    const before = lines
      .slice(0, i)
      .reverse()
      .find((l) => l.trim() !== "");
    blocks.push({
      file,
      line: i + 2,
      language: language!,
      code: lines.slice(i + 1, close).join("\n"),
      source: before === undefined ? undefined : MARKER.exec(before.trim())?.[1],
    });
    i = close;
  }
  return blocks;
}

/** Why an excerpt is not a run of consecutive lines of its source (empty when it is). */
export function excerptMismatch(repo: string, excerpt: Excerpt): string {
  const where = `${excerpt.file}:${excerpt.line} (excerpt of ${excerpt.source})`;
  let source: string;
  try {
    source = readFileSync(join(repo, excerpt.source!), "utf8");
  } catch {
    return `${where}: the file does not exist`;
  }
  return `\n${source}\n`.includes(`\n${excerpt.code}\n`) ? "" : `${where}: not consecutive lines of the file as they are now`;
}
