/**
 * The plugin's version: this package's, which `pulumi plugin install resource cloudcost <version>` names. A
 * `require` of the manifest (from dist/, `..` is the package root), so that the plugin's bundle carries it.
 */
export const PLUGIN_VERSION: string = (require("../package.json") as { version: string }).version;
