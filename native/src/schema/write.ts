import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageSchema } from "./package-schema";
import { PLUGIN_VERSION } from "../version";

/** `npm run schema -w native`: writes native/schema.json (committed; the SDKs are generated from it). */
export const SCHEMA_FILE = join(__dirname, "..", "..", "schema.json");

/** The schema as written: two-space JSON and a final newline (what prettier keeps). */
export function schemaText(): string {
  return `${JSON.stringify(packageSchema(PLUGIN_VERSION), null, 2)}\n`;
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, schemaText());
  console.log(`wrote ${SCHEMA_FILE}`);
}
