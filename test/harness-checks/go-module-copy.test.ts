/**
 * scripts/go-module-copy.js edits the copies of the pinned CLIs' modules by exact text (issue 39): an edit applies
 * only where its text is found exactly once, so a release whose files have another shape fails the build, naming the
 * file and the edit, instead of building something else.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface Edit {
  file: string;
  what: string;
  pattern?: RegExp;
  replacement?: string;
  remove?: true;
  text?: string;
}
const { applyEdits, TrimError, writeTrimmedBuild } = require("../../scripts/go-module-copy.js") as {
  applyEdits(root: string, edits: Edit[], name: string): void;
  TrimError: new (message: string) => Error;
  writeTrimmedBuild(wrapperDir: string, trims: Record<string, Edit[]>, dest: string, dirOf: (module: string) => string): string;
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cloudcost-module-copy-"));
  writeFileSync(join(dir, "init.go"), 'import (\n\t"a/s3"\n\t"a/local"\n)\n\t"s3": s3.New,\n\t"local": local.New,\n');
  writeFileSync(join(dir, "get_s3.go"), "package getter\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("applies each edit where its text is found once: a line out, a line changed, a file deleted, a file added", () => {
  applyEdits(
    dir,
    [
      { file: "init.go", what: "import of s3", pattern: /^\t"a\/s3"\n/ },
      { file: "init.go", what: "the s3 entry", pattern: /^\t"s3": s3\.New,\n/, replacement: '\t// "s3" left out\n' },
      { file: "get_s3.go", what: "the S3 getter", remove: true },
      { file: "left_out.go", what: "a stand-in", text: "package getter\n" },
    ],
    "example.com/m",
  );
  expect(readFileSync(join(dir, "init.go"), "utf8")).toBe('import (\n\t"a/local"\n)\n\t// "s3" left out\n\t"local": local.New,\n');
  expect(existsSync(join(dir, "get_s3.go"))).toBe(false);
  expect(readFileSync(join(dir, "left_out.go"), "utf8")).toBe("package getter\n");
});

it.each([
  [
    "no match",
    { file: "init.go", what: "the gcs entry", pattern: /^\t"gcs": gcs\.New,\n/ },
    "example.com/m init.go (the gcs entry): expected one match, found 0",
  ],
  [
    "two matches",
    { file: "init.go", what: "any entry", pattern: /^\t"\w+": \w+\.New,\n/ },
    "example.com/m init.go (any entry): expected one match, found 2",
  ],
  ["a missing file", { file: "backend.go", what: "a driver", pattern: /x/ }, "example.com/m backend.go (a driver): no such file"],
  ["deleting a missing file", { file: "get_gcs.go", what: "the GCS getter", remove: true }, "the file to delete does not exist"],
  ["adding an existing file", { file: "get_s3.go", what: "a stand-in", text: "" }, "the file to add already exists"],
])("refuses %s, naming the module, the file and the edit", (_, edit, message) => {
  const before = readFileSync(join(dir, "init.go"), "utf8");
  expect(() => applyEdits(dir, [edit as Edit], "example.com/m")).toThrow(TrimError);
  expect(() => applyEdits(dir, [edit as Edit], "example.com/m")).toThrow(message);
  expect(readFileSync(join(dir, "init.go"), "utf8")).toBe(before);
});

it("writes a go.mod that replaces each trimmed module by its copy (quoted), with the wrapper's go.sum beside it; tests are not copied", () => {
  const wrapper = join(dir, "wrapper");
  const source = join(dir, "cache", "m@v1.0.0");
  mkdirSync(wrapper);
  mkdirSync(join(source, "testdata"), { recursive: true });
  writeFileSync(join(wrapper, "go.mod"), "module example.com/wrapper\n\nrequire example.com/m v1.0.0\n");
  writeFileSync(join(wrapper, "go.sum"), "example.com/m v1.0.0 h1:x=\n");
  writeFileSync(join(source, "go.mod"), "module example.com/m\n");
  writeFileSync(join(source, "m.go"), 'package m\n\nimport _ "example.com/s3"\n');
  writeFileSync(join(source, "m_test.go"), "package m\n");
  writeFileSync(join(source, "testdata", "big.json"), "{}");
  const modfile = writeTrimmedBuild(
    wrapper,
    { "example.com/m": [{ file: "m.go", what: "the s3 import", pattern: /^import _ "example\.com\/s3"\n/ }] },
    join(dir, "build dir"),
    () => source,
  );
  const copy = join(dir, "build dir", "example.com_m");
  expect(readFileSync(modfile, "utf8")).toBe(
    `module example.com/wrapper\n\nrequire example.com/m v1.0.0\n\nreplace example.com/m => ${JSON.stringify(copy)}\n`,
  );
  expect(readFileSync(join(dir, "build dir", "build.sum"), "utf8")).toBe("example.com/m v1.0.0 h1:x=\n");
  expect(readFileSync(join(copy, "m.go"), "utf8")).toBe("package m\n\n");
  expect([existsSync(join(copy, "m_test.go")), existsSync(join(copy, "testdata"))]).toEqual([false, false]);
});
