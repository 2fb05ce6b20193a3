/** The package schema as the plugin serves it (GetSchema) and reads its secret properties from. */
export interface PackageSchemaText {
  text: string;
}

/**
 * native/schema.json (from dist/plugin/, `../..` is the package root); a `require`, so that the plugin's
 * bundle carries it.
 */
export function loadSchema(): PackageSchemaText {
  return { text: JSON.stringify(require("../../schema.json")) };
}
