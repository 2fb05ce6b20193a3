import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ResourceKind } from "@cloudcost/pulumi";

/**
 * The text of a resource's reference page (`@cloudcost/pulumi`'s docs/<kind>.md), read so the schema's
 * descriptions are the words users already read there, not a second copy that drifts.
 */
export interface DocsText {
  /** The first paragraph after the title, without the dynamic type token it opens with. */
  summary: string;
  inputs: Map<string, DocsRow>;
  outputs: Map<string, DocsRow>;
  /** Rows of a nested input's own table (ScheduledReport's `schedule`), by field name. */
  nested: Map<string, DocsRow>;
  /** The native provider's example in each language ("The example in every language"), in the page's order. */
  examples: DocsExample[];
}

/** The languages of the page's native examples, by their fences' info strings (Pulumi's schema example languages). */
export const EXAMPLE_LANGUAGES = ["typescript", "python", "go", "yaml"] as const;
export type ExampleLanguage = (typeof EXAMPLE_LANGUAGES)[number];

/** One fenced block of the native example. */
export interface DocsExample {
  language: ExampleLanguage;
  /** The block's text, ending in a newline. */
  code: string;
}

/** One row of an Inputs/Outputs table. */
export interface DocsRow {
  type: string;
  /** Inputs: whether the Required column says "yes". */
  required: boolean;
  /** Inputs: the Default column, without backticks; "" when none. */
  default: string;
  /** The Rules (inputs) or Meaning (outputs) column. */
  text: string;
  secret: boolean;
  /** The Type column admits null. */
  nullable: boolean;
}

const DOCS_FILE: Record<ResourceKind, string> = {
  CloudGroup: "cloud-group.md",
  BudgetAlert: "budget-alert.md",
  ScheduledReport: "scheduled-report.md",
};

function docsFolder(): string {
  return join(dirname(require.resolve("@cloudcost/pulumi/package.json")), "docs");
}

/** Markdown inline code and links reduced to plain words (schema descriptions are Markdown too, but links here are relative). */
function plain(cell: string): string {
  return cell
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/\\\|/g, "|")
    .trim();
}

function cells(line: string): string[] {
  // Split on pipes that are not escaped (`\|` appears inside type cells).
  return line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map(plain);
}

/** The tables of one `## Heading` section: each a list of rows (header and rule lines dropped). */
function tablesOf(markdown: string, heading: string): string[][][] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return [];
  const end = markdown.indexOf("\n## ", start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  const tables: string[][][] = [];
  let current: string[][] | undefined;
  for (const line of section.split("\n")) {
    if (!line.startsWith("|")) {
      current = undefined;
      continue;
    }
    if (!current) {
      current = [];
      tables.push(current);
      continue; // the header line
    }
    if (/^\|[\s|:-]+\|$/.test(line)) continue;
    current.push(cells(line));
  }
  return tables;
}

/** The section under `## HEADING` (up to the next `## `), or "" when the page has none. */
function sectionOf(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) return "";
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/**
 * The fenced blocks of "The example in every language" whose info string is a native example language: the dynamic
 * class's block (`ts`) is the page's own and is left out, as the native SDKs cannot run it.
 */
function examplesOf(markdown: string): DocsExample[] {
  const section = sectionOf(markdown, "The example in every language");
  const languages: readonly string[] = EXAMPLE_LANGUAGES;
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].flatMap(([, info = "", code = ""]) =>
    languages.includes(info) ? [{ language: info as ExampleLanguage, code }] : [],
  );
}

const fieldName = (cell: string): string => cell.replace(/`/g, "");

function row(type: string, text: string, required = false, defaultText = ""): DocsRow {
  return {
    type,
    required,
    default: defaultText.replace(/`/g, ""),
    text,
    secret: /\(secret\)/.test(type),
    nullable: /\bnull\b/.test(type),
  };
}

/** Reads the reference page of KIND. */
export function docsText(kind: ResourceKind): DocsText {
  const markdown = readFileSync(join(docsFolder(), DOCS_FILE[kind]), "utf8");
  const afterTitle = markdown.split("\n\n")[1] ?? "";
  const summary = afterTitle
    .replace(/\n/g, " ")
    .replace(/^`[^`]+`\s*—\s*/, "")
    .trim();
  const [inputTable = [], nestedTable = []] = tablesOf(markdown, "Inputs");
  const [outputTable = []] = tablesOf(markdown, "Outputs");
  const inputs = new Map(
    inputTable.map(([name = "", type = "", required = "", def = "", rules = ""]) => [
      fieldName(name),
      row(type, rules, required === "yes", def),
    ]),
  );
  const nested = new Map(
    nestedTable.map(([name = "", type = "", rules = ""]) => [fieldName(name), row(type, rules, rules.startsWith("required;"))]),
  );
  const outputs = new Map(outputTable.map(([name = "", type = "", meaning = ""]) => [fieldName(name), row(type, meaning)]));
  return { summary: plain(summary), inputs, outputs, nested, examples: examplesOf(markdown) };
}
