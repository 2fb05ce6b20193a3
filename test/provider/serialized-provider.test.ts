import { installedProviderTexts, providerText, RESOURCE_KINDS } from "@cloudcost/testkit";

describe("the serialized __provider stored with every resource", () => {
  it("is at most 2 KB per resource when the package is installed from node_modules, and only requires the runtime", async () => {
    const texts = await installedProviderTexts();
    for (const kind of RESOURCE_KINDS) {
      const text = texts[kind];
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2048);
      expect(text).toContain(`k: "${kind}"`);
      expect(text).toContain('require("@cloudcost/pulumi/runtime")');
      // Nothing else is captured: no other module, no config, no client.
      expect(text.match(/require\(/g)).toHaveLength(1);
      expect(text).not.toMatch(/CLOUDCOST_|apiToken|clientSecret|undici|zod/);
    }
  });

  it("is the same text in the workspace, where the package is reached through a symlink", async () => {
    const installed = await installedProviderTexts();
    expect(await providerText("BudgetAlert")).toBe(installed.BudgetAlert);
  });
});
