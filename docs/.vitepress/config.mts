/**
 * The docs site (`npm run docs`): VitePress over the repository's own Markdown. Pages are the files where they
 * are (site-map.mts), so an edit to a package README or a resource page is on the site at the next build.
 */
import { slug } from "github-slugger";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { defineConfig, type DefaultTheme } from "vitepress";
import { repoLinks } from "./repo-links.mjs";
import { REPO, REPO_WEB, nonPages, rewrites } from "./site-map.mjs";

/** Links to files that do not exist, collected while pages render; the build fails on any. */
const broken: string[] = [];

/** One sidebar item per page of a folder of the repository, titled by its file name. */
function pagesOf(folder: string, route: string, title: (name: string) => string = (n) => n): DefaultTheme.SidebarItem[] {
  return readdirSync(join(REPO, folder))
    .filter((f) => f.endsWith(".md") && f !== "index.md")
    .sort()
    .map((f) => ({ text: title(f.replace(/\.md$/, "")), link: `${route}/${f.replace(/\.md$/, "")}` }));
}

// An example is a page when it has a README (site-map.mts); a folder of files only (examples/ci) is not.
const examples = readdirSync(join(REPO, "examples"), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(REPO, "examples", d.name, "README.md")))
  .map((d) => d.name)
  .sort();

const sidebar: DefaultTheme.Sidebar = [
  {
    text: "Guides",
    items: [
      { text: "Getting started", link: "/guide/getting-started" },
      { text: "Configuration", link: "/guide/configuration" },
      { text: "Pulumi TypeScript", link: "/guide/pulumi-typescript" },
      { text: "Pulumi Python", link: "/guide/pulumi-python" },
      { text: "Pulumi Go", link: "/guide/pulumi-go" },
      { text: "Pulumi YAML", link: "/guide/pulumi-yaml" },
      { text: "The native provider", link: "/guide/native-provider" },
      { text: "Terraform and OpenTofu", link: "/guide/terraform" },
      { text: "CDK for Terraform", link: "/guide/cdktf" },
      { text: "The policy pack", link: "/guide/policies" },
      { text: "The sandbox", link: "/guide/sandbox" },
      { text: "Examples", link: "/guide/examples" },
    ],
  },
  {
    text: "Concepts",
    items: [
      { text: "Resources and how they behave", link: "/concepts/resources" },
      { text: "Budgets compared with the clouds", link: "/concepts/budgets-compared" },
      { text: "Benchmarks and proof", link: "/concepts/benchmarks" },
    ],
  },
  {
    text: "Recipes",
    items: [
      { text: "Test that your alert fires (CI)", link: "/recipes/ci-alert-test" },
      { text: "Adopt what exists", link: "/recipes/adoption" },
      { text: "Interrupted runs", link: "/recipes/interrupted-runs" },
      { text: "Budget policies in CI", link: "/recipes/policies-in-ci" },
      { text: "Move a stack to the native provider", link: "/recipes/move-to-native" },
    ],
  },
  {
    text: "Reference",
    items: [
      { text: "The API and its contract", link: "/reference/api" },
      { text: "API reference (all operations)", link: "/api/reference.html", target: "_self" },
      { text: "Troubleshooting", link: "/reference/troubleshooting" },
      { text: "Pulumi resources", collapsed: false, items: pagesOf("provider/docs", "/reference/pulumi") },
      {
        text: "Terraform provider",
        collapsed: true,
        items: [
          { text: "Provider", link: "/reference/terraform/" },
          ...pagesOf("terraform-provider-cloudcost/docs/resources", "/reference/terraform/resources", (n) => `cloudcost_${n}`),
          ...pagesOf("terraform-provider-cloudcost/docs/data-sources", "/reference/terraform/data-sources", (n) => `cloudcost_${n} (data)`),
          ...pagesOf(
            "terraform-provider-cloudcost/docs/ephemeral-resources",
            "/reference/terraform/ephemeral-resources",
            (n) => `cloudcost_${n} (ephemeral)`,
          ),
        ],
      },
    ],
  },
  {
    text: "Packages",
    collapsed: true,
    items: [
      { text: "@cloudcost/pulumi", link: "/packages/provider" },
      { text: "pulumi-resource-cloudcost", link: "/packages/native" },
      { text: "@cloudcost/policies", link: "/packages/policies" },
      { text: "@cloudcost/sandbox", link: "/packages/sandbox" },
      { text: "Sandbox OAuth and portal", link: "/packages/sandbox-oauth" },
      { text: "@cloudcost/api", link: "/packages/api" },
      { text: "terraform-provider-cloudcost", link: "/packages/terraform-provider-cloudcost" },
      { text: "Benchmarks", link: "/packages/bench" },
      { text: "Test harness", link: "/packages/testkit" },
    ],
  },
  { text: "Examples", collapsed: true, items: examples.map((e) => ({ text: e, link: `/examples/${e}` })) },
  {
    text: "Project",
    collapsed: true,
    items: [
      { text: "Contributing", link: "/contributing" },
      { text: "Architecture", link: "/architecture" },
    ],
  },
];

export default defineConfig({
  title: "cloudcost-pulumi",
  description: "The Cloud Cost Management service as code: Pulumi, Terraform and OpenTofu, a policy pack and a local sandbox",
  srcDir: "..",
  srcExclude: nonPages(),
  rewrites: rewrites(),
  outDir: "./.vitepress/dist",
  cacheDir: "./.vitepress/cache",
  cleanUrls: false,
  lastUpdated: false,
  // The Redoc page and the contract are written into the output after VitePress (scripts/docs.js); the link
  // checker (test/docs/site.test.ts) holds every link of the built site, these included.
  ignoreDeadLinks: [/^\/api\//],
  markdown: {
    // GitHub's anchors, so a `#fragment` written for the repository works on the site too.
    anchor: { slugify: slug },
    config: (md) => repoLinks(md, broken),
  },
  themeConfig: {
    nav: [
      { text: "Guides", link: "/guide/getting-started" },
      { text: "Recipes", link: "/recipes/ci-alert-test" },
      { text: "API", link: "/reference/api" },
    ],
    sidebar,
    search: { provider: "local" },
    outline: { level: [2, 3] },
    socialLinks: [{ icon: "github", link: REPO_WEB }],
  },
  buildEnd() {
    if (broken.length > 0) throw new Error(`links to files that do not exist:\n  ${[...new Set(broken)].join("\n  ")}`);
  },
});
