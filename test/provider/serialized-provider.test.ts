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
});
