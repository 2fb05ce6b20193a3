import { readFileSync } from "node:fs";
import { join } from "node:path";
import { installedProviderTexts, providerTexts, RESOURCE_KINDS, type ResourceKind } from "@cloudcost/testkit";

const FILES: Record<ResourceKind, string> = { CloudGroup: "cloud-group", BudgetAlert: "budget-alert", ScheduledReport: "scheduled-report" };

describe("the serialized __provider stored with every resource", () => {
  it("is at most 512 bytes per resource when the package is installed from node_modules: one require of the kind's provider module", async () => {
    const texts = await installedProviderTexts();
    for (const kind of RESOURCE_KINDS) {
      const text = texts[kind];
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(512);
      expect(text).toContain(`require("@cloudcost/pulumi/dist/providers/${FILES[kind]}.js")`);
      // Nothing else is captured: no other module, no config, no client.
      expect(text.match(/require\(/g)).toHaveLength(1);
      expect(text).not.toMatch(/CLOUDCOST_|apiToken|clientSecret|undici|zod/);
    }
  });

  it("is the same text in the workspace, where the package is reached through a symlink", async () => {
    const installed = await installedProviderTexts();
    expect(await providerTexts()).toEqual(installed);
  });

  it("has the size provider/README.md states (Dynamic-provider limits)", async () => {
    const readme = readFileSync(join(__dirname, "..", "..", "provider", "README.md"), "utf8");
    const [, low, high] = /Measured\s+`__provider` size: ([\d,]+)–([\d,]+) bytes per resource/.exec(readme) ?? [];
    const stated = [low, high].map((n) => Number(n?.replace(/,/g, "")));
    const sizes = Object.values(await installedProviderTexts()).map((text) => Buffer.byteLength(text));
    for (const size of sizes) expect([stated[0]! <= size, size <= stated[1]!, size]).toEqual([true, true, size]);
  });
});
