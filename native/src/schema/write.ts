import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { packageSchema, RELEASE_PLUGIN_DOWNLOAD_URL } from "./package-schema";
import { PLUGIN_VERSION } from "../version";

/** `npm run schema -w native`: writes native/schema.json (committed; the SDKs are generated from it). */
export const SCHEMA_FILE = join(__dirname, "..", "..", "schema.json");

/**
 * The schema as written: two-space JSON and a final newline (what prettier keeps). The release
 * (scripts/release/pulumi-plugin.js) passes the version it cuts and, for a test's or a mirror's server, another
 * download URL; the committed file has the package's version and the release location.
 */
export function schemaText(version: string = PLUGIN_VERSION, pluginDownloadURL: string = RELEASE_PLUGIN_DOWNLOAD_URL): string {
  return `${JSON.stringify(packageSchema(version, pluginDownloadURL), null, 2)}\n`;
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, schemaText());
  console.log(`wrote ${SCHEMA_FILE}`);
}
