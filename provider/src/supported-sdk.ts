/**
 * Refuses to load next to a Pulumi SDK older than the floor of our own package.json range. Those floors
 * are what the CI matrix (.ci/run) proved: @pulumi/pulumi 3.216 is the first whose dynamic-provider host
 * passes on the inputs a Read returns (drift on refresh; 3.215 silently keeps the stored inputs). An
 * older SDK would run and quietly misbehave, so the import fails at once with the version needed.
 * Three numbers are compared by hand: a semver library would be a new dependency of every program for this.
 */

/** The dotted numbers of a version (`3.216.0`, `v1.21.0`) or of a `^` range's floor (`^3.216.0`). */
function numbers(version: string): number[] {
  return version
    .replace(/^[\^~v>=\s]+/, "")
    .split(/[.+-]/)
    .slice(0, 3)
    .map(Number);
}

/** `found` satisfies `^floor`: the same major version, at least the floor. */
function satisfiesCaret(found: string, range: string): boolean {
  const [have, want] = [numbers(found), numbers(range)];
  if (have[0] !== want[0]) return false;
  for (let i = 1; i < 3; i++) if ((have[i] ?? 0) !== (want[i] ?? 0)) return (have[i] ?? 0) > (want[i] ?? 0);
  return true;
}

/**
 * Throws when `found` (the installed version of `pkg`) is outside `range` (a `^X.Y.Z` range from the
 * package.json of `who`). The error names what is needed and how to get it, and carries no stack trace:
 * it is for the person running `pulumi up`, not a bug report.
 */
export function assertSupportedVersion(pkg: string, found: string, range: string, who: string): void {
  if (satisfiesCaret(found, range)) return;
  const floor = numbers(range).join(".");
  const error = new Error(
    `${who} needs ${pkg} ${range} (${floor} or a newer ${numbers(range)[0]}.x), but ${pkg} ${found.replace(/^v/, "")} is installed: run \`npm install ${pkg}@${range}\`.`,
  );
  error.stack = `Error: ${error.message}`;
  throw error;
}

const manifest = require("../package.json") as { name: string; peerDependencies: Record<string, string> };
const pulumiVersion = (require("@pulumi/pulumi/package.json") as { version: string }).version;
assertSupportedVersion("@pulumi/pulumi", pulumiVersion, manifest.peerDependencies["@pulumi/pulumi"]!, manifest.name);
