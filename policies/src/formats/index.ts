import type { Verdict } from "../verdict/verdict";
import { github } from "./github";
import { json } from "./json";
import { junit } from "./junit";
import { markdown } from "./markdown";
import { sarif } from "./sarif";
import { text } from "./text";

/** Issue 40: every format renders the one verdict. */
export const FORMATS = ["text", "json", "sarif", "junit", "github", "markdown"] as const;
export type Format = (typeof FORMATS)[number];

export function render(format: Format, verdict: Verdict, version: string): string {
  switch (format) {
    case "text":
      return text(verdict);
    case "json":
      return json(verdict);
    case "sarif":
      return sarif(verdict, version);
    case "junit":
      return junit(verdict);
    case "github":
      return github(verdict);
    case "markdown":
      return markdown(verdict);
  }
}
