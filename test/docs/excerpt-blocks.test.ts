/**
 * Issue 41: the README and the docs pages show the Python, Go, YAML and HCL programs as excerpts of the examples
 * (`<!-- excerpt: PATH -->`), which test/engine and test/terraform deploy with the real CLIs; a block that drifts
 * from its example fails here. The README's blocks in those languages must all be such excerpts.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { markdownFiles } from "./markdown-code-blocks";
import { excerptMismatch, fencedBlocksOf } from "./markdown-excerpts";

const REPO = resolve(__dirname, "..", "..");
const blocks = markdownFiles(REPO).flatMap((file) => fencedBlocksOf(file, readFileSync(join(REPO, file), "utf8")));
const excerpts = blocks.filter((b) => b.source !== undefined);

describe("excerpts of tested files in the Markdown", () => {
  it("are found: the README's door examples and the Python, Go and YAML guides", () => {
    const files = new Set(excerpts.map((e) => `${e.file} ${e.language}`));
    for (const expected of [
      "README.md python",
      "README.md go",
      "README.md yaml",
      "README.md hcl",
      "docs/guide/pulumi-python.md python",
      "docs/guide/pulumi-go.md go",
      "docs/guide/pulumi-yaml.md yaml",
    ])
      expect(files).toContain(expected);
  });

  it("are each consecutive lines of the file they name, as it is now", () => {
    expect(excerpts.map((e) => excerptMismatch(REPO, e)).filter(Boolean)).toEqual([]);
  });

  it("cover every Python, Go, YAML and HCL block of the README", () => {
    const unmarked = blocks.filter((b) => b.file === "README.md" && /^(python|go|ya?ml|hcl)$/.test(b.language) && b.source === undefined);
    expect(unmarked.map((b) => `${b.file}:${b.line}`)).toEqual([]);
  });

  it("reject a block whose lines differ from the file's, or that names no file", () => {
    const [changed, missing] = fencedBlocksOf(
      "bad.md",
      [
        "<!-- excerpt: examples/quickstart-terraform/main.tf -->",
        "",
        "```hcl",
        "  amount   = 9000",
        "```",
        "<!-- excerpt: examples/no-such/main.tf -->",
        "```hcl",
        "x = 1",
        "```",
      ].join("\n"),
    );
    expect(excerptMismatch(REPO, changed!)).toMatch(/bad\.md:4 .*not consecutive lines/);
    expect(excerptMismatch(REPO, missing!)).toMatch(/bad\.md:8 .*does not exist/);
  });
});
