import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The plugin's version: this package's, which `pulumi plugin install resource cloudcost <version>` names. */
export const PLUGIN_VERSION: string = (JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8")) as { version: string })
  .version;
