import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The package schema as the plugin serves it (GetSchema) and reads its secret properties from. */
export interface PackageSchemaText {
  text: string;
}

/**
 * native/schema.json, found beside the compiled plugin (`dist/plugin/` → the package root) or, in a plugin
 * tarball, next to the bundled entry.
 */
export function loadSchema(): PackageSchemaText {
  const candidates = [join(__dirname, "..", "..", "schema.json"), join(__dirname, "schema.json")];
  const file = candidates.find((f) => existsSync(f));
  if (!file) throw new Error(`the package schema is missing: looked for ${candidates.join(" and ")}`);
  return { text: readFileSync(file, "utf8") };
}
