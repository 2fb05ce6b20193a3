import { assertSupportedVersion } from "@cloudcost/pulumi";

/**
 * The pack refuses to start next to an @pulumi/policy older than the floor of its dependency range:
 * 1.20 is the oldest release in the registry that matches a resource to `validateResourceOfType` by the
 * class's static `__pulumiType`; 1.15 and older only call `isInstance` on a plain object, which our
 * classes reject, so every resource policy would silently pass. Importing @cloudcost/pulumi above has
 * already checked @pulumi/pulumi the same way.
 */
const manifest = require("../package.json") as { name: string; dependencies: Record<string, string> };
const policyVersion = (require("@pulumi/policy/package.json") as { version: string }).version;
assertSupportedVersion("@pulumi/policy", policyVersion, manifest.dependencies["@pulumi/policy"]!, manifest.name);
