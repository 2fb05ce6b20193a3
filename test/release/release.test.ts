/**
 * Issue 41: one release, cut by `npm run release` (dry run: a key generated for the run signs the provider's sums),
 * published to real registries of every ecosystem on 127.0.0.1 and installed from each by a clean folder with the
 * commands RELEASING.md's "Installing a release" gives users, then used against a sandbox:
 *
 *   npm        the tarballs published by scripts/release/publish.js to Verdaccio (test/registry/verdaccio.ts)
 *   PyPI       the wheel and sdist uploaded by twine to pypiserver (test/registry/pypiserver.ts)
 *   Go         the release's module proxy tree, served as GOPROXY=file://
 *   Terraform  a provider registry over HTTPS with the test's own CA (./terraform-registry.ts) that the real
 *              `tofu init` installs from, verifying the SHA256SUMS signature against the registry's signing key;
 *              a tampered zip, a re-summed one and another key are each refused
 *   Pulumi     a plugin server at the pluginDownloadURL the release wrote into the schema and SDKs
 *              (./plugin-server.ts): `pulumi plugin install resource cloudcost <version> --server`, and `pulumi up`
 *              of a program on the SDK from Verdaccio with an empty plugin cache, which fetches the plugin itself
 *
 * CLOUDCOST_RELEASE=1 (`npm run test:release`); needs go, python3, zip, gpg, openssl, the Pulumi CLI of
 * scripts/pulumi-cli.js and OpenTofu of scripts/opentofu.js, and the package registries for third-party packages.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { PulumiWorkspace, pulumiCliBin, type RunningSandbox, startSandbox } from "@cloudcost/testkit";
import { startPypiServer } from "../registry/pypiserver";
import { goBuild, sh, userEnv, virtualenv } from "../registry/shell";
import { type LocalRegistry, startRegistry } from "../registry/verdaccio";
import { type PluginServer, startPluginServer } from "./plugin-server";
import { startTerraformRegistry } from "./terraform-registry";
import { testTls } from "./tls";

const enabled = process.env.CLOUDCOST_RELEASE === "1";
const REPO = resolve(__dirname, "..", "..");
/** A hang guard for the release (up to six provider binaries cross-compiled on a loaded 2-core machine), never a verdict on speed. */
const RELEASE_TIMEOUT_MS = 60 * 60_000;

interface Artifact {
  file: string;
  kind: string;
  bytes: number;
  sha256: string;
}
interface ReleaseSummary {
  version: string;
  previous: string;
  dryRun: boolean;
  tags: string[];
  signingKey: { keyId: string; ephemeral: boolean; file: string };
  pluginDownloadURL: string;
  artifacts: Artifact[];
  sboms: string[];
}

/**
 * The provider's platforms this run builds: every one, or CLOUDCOST_RELEASE_PROVIDER_PLATFORMS ("os/arch,..."; CI
 * builds one per operating system, .ci/run), handed to the release as --provider-platforms.
 */
const PLATFORMS_ASKED = process.env.CLOUDCOST_RELEASE_PROVIDER_PLATFORMS;
const { providerPlatforms } = require("../../scripts/release/terraform-provider.js") as {
  providerPlatforms(list?: string): { os: string; arch: string }[];
};

const publish = require("../../scripts/release/publish.js") as {
  publishNpm(o: { out: string; tarballs: string[]; userconfig?: string }): void;
  publishPypi(o: { out: string; files: string[]; repositoryUrl?: string; username?: string; password?: string }): void;
};

/** The lines RELEASING.md gives users, by ecosystem (its `<!-- from-a-registry: NAME -->` blocks), with VERSION filled in. */
function installLines(name: string, version: string): string[] {
  const doc = readFileSync(join(REPO, "RELEASING.md"), "utf8");
  const block = new RegExp(`<!-- from-a-registry: ${name} -->\\n\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\`\\n`).exec(doc)?.[1];
  if (!block) throw new Error(`RELEASING.md has no from-a-registry block for ${name}`);
  return block
    .replaceAll("<version>", version)
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"));
}

/** Runs a user's command line in DIR with bash, as typed. */
const shell = (line: string, dir: string, env: NodeJS.ProcessEnv) => sh("bash", ["-e", "-o", "pipefail", "-c", line], dir, env);

function gitStatus(): string {
  return spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: REPO, encoding: "utf8" }).stdout;
}

(enabled ? describe : describe.skip)(
  "a release, cut by npm run release and installed from registries on 127.0.0.1 (CLOUDCOST_RELEASE=1)",
  () => {
    let root: string;
    let out: string;
    let plugins: PluginServer;
    let release: ReleaseSummary;
    let sandbox: RunningSandbox;
    let token: string;
    let npm: LocalRegistry | undefined;
    let statusBefore: string;

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), "cloudcost-release-"));
      out = join(root, "release");
      plugins = await startPluginServer(out);
      statusBefore = gitStatus();
      await new Promise<void>((resolvePromise, reject) => {
        const child = spawn(
          process.execPath,
          [
            join(REPO, "scripts", "release.js"),
            "--out",
            out,
            "--plugin-download-url",
            plugins.downloadUrl,
            ...(PLATFORMS_ASKED ? ["--provider-platforms", PLATFORMS_ASKED] : []),
          ],
          {
            cwd: REPO,
            env: userEnv({}),
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let output = "";
        child.stdout.on("data", (d: Buffer) => (output += d.toString()));
        child.stderr.on("data", (d: Buffer) => (output += d.toString()));
        const timer = setTimeout(() => child.kill("SIGKILL"), RELEASE_TIMEOUT_MS);
        child.once("close", (code) => {
          clearTimeout(timer);
          if (code === 0) resolvePromise();
          else reject(new Error(`npm run release exited ${code}:\n${output}`));
        });
      });
      release = JSON.parse(readFileSync(join(out, "release.json"), "utf8")) as ReleaseSummary;
      sandbox = await startSandbox();
      token = await sandbox.token("read,write");
    }, RELEASE_TIMEOUT_MS);

    afterAll(async () => {
      await npm?.stop();
      await plugins?.stop();
      await sandbox?.dispose();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    /** Verdaccio with every npm tarball of the release published by the release's own publish step; started once. */
    async function npmRegistry(): Promise<LocalRegistry> {
      if (!npm) {
        npm = await startRegistry(join(root, "verdaccio"));
        const tarballs = release.artifacts.filter((a) => a.kind === "npm").map((a) => a.file);
        publish.publishNpm({ out, tarballs, userconfig: npm.userconfig });
      }
      return npm;
    }

    const npmEnv = (registry: LocalRegistry) =>
      userEnv({
        npm_config_userconfig: registry.userconfig,
        npm_config_registry: registry.url,
        npm_config_cache: join(root, "npm-cache"),
        npm_config_update_notifier: "false",
        npm_config_audit: "false",
        npm_config_fund: "false",
      });

    test("the release folder: every artifact as release.json lists it, each with a CycloneDX SBOM; the working tree as it was", () => {
      const { version } = release;
      expect(release.dryRun).toBe(true);
      expect(release.signingKey.ephemeral).toBe(true);
      expect(release.tags).toEqual([`v${version}`, `sdk/go/v${version}`, `terraform-provider-cloudcost/v${version}`]);
      const names = release.artifacts.map((a) => a.file);
      const zips = providerPlatforms(PLATFORMS_ASKED).map(({ os, arch }) => `terraform-provider-cloudcost_${version}_${os}_${arch}.zip`);
      // The provider's zips: exactly the platforms built (the registry lists each in `versions`).
      expect(names.filter((n) => /^terraform-provider-cloudcost_.*\.zip$/.test(n)).sort()).toEqual([...zips].sort());
      expect(names).toEqual(
        expect.arrayContaining([
          `cloudcost-api-${version}.tgz`,
          `cloudcost-pulumi-${version}.tgz`,
          `cloudcost-policies-${version}.tgz`,
          `cloudcost-sandbox-${version}.tgz`,
          `cloudcost-pulumi-native-${version}.tgz`,
          `pulumi_cloudcost-${version}-py3-none-any.whl`,
          `pulumi_cloudcost-${version}.tar.gz`,
          `goproxy/github.com/cloudcost/cloudcost-pulumi/sdk/go/@v/v${version}.zip`,
          `goproxy/github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost/@v/v${version}.zip`,
          ...zips,
          `terraform-provider-cloudcost_${version}_manifest.json`,
          `terraform-provider-cloudcost_${version}_SHA256SUMS`,
          `terraform-provider-cloudcost_${version}_SHA256SUMS.sig`,
          ...["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"].map(
            (p) => `pulumi-resource-cloudcost-v${version}-${p}.tar.gz`,
          ),
        ]),
      );
      for (const a of release.artifacts) {
        const file = join(out, a.file);
        expect({ file: a.file, bytes: readFileSync(file).length }).toEqual({ file: a.file, bytes: a.bytes });
        expect(spawnSync("sha256sum", [file], { encoding: "utf8" }).stdout.split(" ")[0]).toBe(a.sha256);
      }
      // One SBOM per artifact but the provider's checksum files (they are about the zips, which have theirs).
      const withSbom = release.artifacts.filter((a) => !/_(manifest\.json|SHA256SUMS(\.sig)?)$/.test(a.file));
      for (const a of withSbom) {
        const sbom = join(out, "sbom", `${a.file.replace(/\//g, "_")}.cdx.json`);
        expect(existsSync(sbom) ? a.file : `no SBOM for ${a.file}`).toBe(a.file);
        const bom = JSON.parse(readFileSync(sbom, "utf8")) as { bomFormat: string; components?: unknown[] };
        expect(bom.bomFormat).toBe("CycloneDX");
        expect((bom.components ?? []).length).toBeGreaterThan(0);
      }
      // The version patch carries the CHANGELOGs and versions; the repository itself was not touched.
      const patch = readFileSync(join(out, `v${version}.patch`), "utf8");
      expect(patch).toContain(`+## ${version}`);
      expect(patch).toContain("provider/CHANGELOG.md");
      expect(gitStatus()).toBe(statusBefore);
    });

    test("Terraform: tofu init installs the provider from an HTTPS registry and checks its signature; tofu apply creates the quickstart in a sandbox", async () => {
      const { version } = release;
      const tofu = spawnSync(process.execPath, [join(REPO, "scripts", "opentofu.js"), "--print-bin"], { cwd: REPO, encoding: "utf8" });
      if (tofu.status !== 0) throw new Error(`scripts/opentofu.js failed:\n${tofu.stdout}${tofu.stderr}`);
      const tofuPath = tofu.stdout.trim().split("\n").at(-1)!;
      const tlsDir = join(root, "tls");
      mkdirSync(tlsDir);
      const tls = testTls(tlsDir);
      const genuineKey = { keyId: release.signingKey.keyId, armor: readFileSync(join(out, release.signingKey.file), "utf8") };
      const registry = await startTerraformRegistry(out, version, genuineKey, tls);
      try {
        // No CLI configuration of the machine's: an empty one, unless a command names another.
        const emptyConfig = join(root, "tofurc-empty");
        writeFileSync(emptyConfig, "");
        const env = userEnv({
          TF_CLI_CONFIG_FILE: emptyConfig,
          SSL_CERT_FILE: tls.caFile,
          CHECKPOINT_DISABLE: "1",
          TF_IN_AUTOMATION: "1",
          CLOUDCOST_API_URL: sandbox.baseUrl,
          CLOUDCOST_API_TOKEN: token,
        });
        const quickstart = readFileSync(join(REPO, "examples", "quickstart-terraform", "main.tf"), "utf8");
        expect(quickstart).toContain('source = "cloudcost/cloudcost"');
        /** The quickstart in a fresh folder; SOURCE replaces its provider source address. */
        const folder = (name: string, source = `${registry.host}/cloudcost/cloudcost`) => {
          const dir = join(root, name);
          mkdirSync(dir);
          writeFileSync(join(dir, "main.tf"), quickstart.replace('source = "cloudcost/cloudcost"', `source = "${source}"`));
          return dir;
        };
        const tofuIn = (dir: string, args: string[], extra: Record<string, string> = {}) =>
          sh(tofuPath, [...args, "-no-color", "-input=false"], dir, { ...env, ...extra });
        const refused = async (dir: string) => {
          const err = await tofuIn(dir, ["init"]).then(
            () => new Error("tofu init succeeded"),
            (e: Error) => e,
          );
          // OpenTofu wraps its messages at 80 columns.
          return err.message.replace(/\s+/g, " ");
        };

        // The user's configuration as written (`source = "cloudcost/cloudcost"`), the public registry's host name
        // answered by ours: the CLI configuration's `host` block stands in for its service discovery.
        const asWritten = folder("tofu-as-written", "cloudcost/cloudcost");
        const cliConfig = join(root, "tofurc");
        writeFileSync(
          cliConfig,
          `host "registry.opentofu.org" {\n  services = {\n    "providers.v1" = "https://${registry.host}/v1/providers/"\n  }\n}\n`,
        );
        for (const line of installLines("terraform", version)) {
          await shell(line.replace(/^tofu /, `${tofuPath} `), asWritten, { ...env, TF_CLI_CONFIG_FILE: cliConfig });
        }
        expect(readFileSync(join(asWritten, ".terraform.lock.hcl"), "utf8")).toContain(
          `provider "registry.opentofu.org/cloudcost/cloudcost"`,
        );

        // Addressed by our registry's own host name: service discovery (/.well-known/terraform.json) first.
        registry.requests.length = 0;
        const user = folder("tofu-user");
        await tofuIn(user, ["init"]);
        const lock = readFileSync(join(user, ".terraform.lock.hcl"), "utf8");
        expect(lock).toContain(`provider "${registry.host}/cloudcost/cloudcost"`);
        expect(lock).toMatch(new RegExp(`version\\s+= "${version.replaceAll(".", "\\.")}"`));
        // Every zip's hash from the signed SHA256SUMS ("zh:"), which tofu records only after checking the signature.
        const sums = readFileSync(join(out, `terraform-provider-cloudcost_${version}_SHA256SUMS`), "utf8");
        for (const [hash, file] of sums
          .trim()
          .split("\n")
          .map((l) => l.split(/\s+/))) {
          if (file!.endsWith(".zip")) expect(lock).toContain(`"zh:${hash}"`);
        }
        expect(registry.requests).toEqual(
          expect.arrayContaining([
            "/.well-known/terraform.json",
            "/v1/providers/cloudcost/cloudcost/versions",
            `/v1/providers/cloudcost/cloudcost/${version}/download/linux/amd64`,
            `/files/terraform-provider-cloudcost_${version}_SHA256SUMS.sig`,
          ]),
        );
        await tofuIn(user, ["apply", "-auto-approve"]);
        const groups: string[] = [];
        const { CloudCostClient } = await import("@cloudcost/api");
        for await (const g of new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } }).listGroups())
          groups.push(g.name);
        expect(groups).toContain("Web shop");
        await tofuIn(user, ["destroy", "-auto-approve"]);

        const zipName = `terraform-provider-cloudcost_${version}_linux_amd64.zip`;
        const sumsName = `terraform-provider-cloudcost_${version}_SHA256SUMS`;
        const genuineZip = registry.files.get(zipName)!;
        const genuineSums = registry.files.get(sumsName)!;
        const tampered = Buffer.concat([genuineZip, Buffer.from("tampered")]);

        // A zip changed on the way: its hash is not the one the registry and the signed sums give.
        registry.files.set(zipName, tampered);
        expect(await refused(folder("tofu-tampered-zip"))).toMatch(/archive has incorrect checksum/);

        // The zip changed and the sums rewritten to match it: the signature no longer verifies.
        const { createHash } = await import("node:crypto");
        const resummed = genuineSums
          .toString("utf8")
          .replace(
            /^[0-9a-f]{64}(?=\s+terraform-provider-cloudcost_.*_linux_amd64\.zip$)/m,
            createHash("sha256").update(tampered).digest("hex"),
          );
        registry.files.set(sumsName, Buffer.from(resummed));
        expect(await refused(folder("tofu-resummed-zip"))).toMatch(/not signed with a valid signing key[^]*invalid signature/);

        // The genuine files, but the registry names another key than the one that signed them.
        registry.files.set(zipName, genuineZip);
        registry.files.set(sumsName, genuineSums);
        const gnupg = mkdtempSync(join(root, "other-key-"));
        const gpgEnv = { ...process.env, GNUPGHOME: gnupg };
        spawnSync(
          "gpg",
          ["--batch", "--passphrase", "", "--quick-generate-key", "someone else <other@cloudcost.invalid>", "rsa3072", "sign", "1d"],
          { env: gpgEnv },
        );
        const otherId = /^sec:[^:]*:[^:]*:[^:]*:([0-9A-F]+):/m.exec(
          spawnSync("gpg", ["--batch", "--with-colons", "--list-secret-keys"], { env: gpgEnv, encoding: "utf8" }).stdout,
        )?.[1];
        const otherArmor = spawnSync("gpg", ["--batch", "--armor", "--export", otherId!], { env: gpgEnv, encoding: "utf8" }).stdout;
        spawnSync("gpgconf", ["--kill", "gpg-agent"], { env: gpgEnv });
        registry.signingKey = { keyId: otherId!, armor: otherArmor };
        expect(await refused(folder("tofu-other-key"))).toMatch(/not signed with a valid signing key[^]*unknown issuer/);
      } finally {
        await registry.stop();
      }
    });

    test("Pulumi: the plugin installs from its download URL without --file, and pulumi up of a program on the SDK from npm fetches it itself", async () => {
      const { version } = release;
      expect(release.pluginDownloadURL).toBe(plugins.downloadUrl);
      const registry = await npmRegistry();
      const env = npmEnv(registry);

      // `pulumi plugin install` as RELEASING.md gives it, the server being the release's location.
      const installer = new PulumiWorkspace({ env: { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false" } });
      try {
        const server = plugins.downloadUrl.replace("${VERSION}", version);
        for (const line of installLines("pulumi-plugin", version)) {
          const args = line
            .replace(/^pulumi /, "")
            .replace(/--server \S+/, `--server ${server}`)
            .split(/\s+/);
          await installer.must(args, root);
        }
        const listed = await installer.must(["plugin", "ls", "--json"], root);
        expect(JSON.parse(listed.stdout)).toEqual(
          expect.arrayContaining([expect.objectContaining({ name: "cloudcost", kind: "resource", version })]),
        );
      } finally {
        installer.dispose();
      }
      expect(plugins.requests).toContain(`/releases/v${version}/pulumi-resource-cloudcost-v${version}-linux-amd64.tar.gz`);

      // A program on the SDK from the registry, with an empty plugin cache: the engine downloads the plugin from
      // the URL the SDK carries.
      const user = join(root, "pulumi-user");
      mkdirSync(user);
      writeFileSync(
        join(user, "package.json"),
        JSON.stringify({ name: "try-cloudcost", private: true, version: "1.0.0", main: "index.js" }),
      );
      writeFileSync(join(user, "Pulumi.yaml"), "name: try-cloudcost\nruntime: nodejs\n");
      writeFileSync(
        join(user, "index.js"),
        'const cloudcost = require("@cloudcost/pulumi-native");\nexports.id = new cloudcost.CloudGroup("g", { name: "Released group" }).id;\n',
      );
      for (const line of installLines("npm", version)) await shell(line, user, env);
      // Every resource and function of the schema, as the installed package exports them.
      const exported = await sh(
        "node",
        [
          "-p",
          'const c = require("@cloudcost/pulumi-native"); [typeof c.BudgetAlert, typeof c.CloudGroup, typeof c.ScheduledReport, typeof c.getCostSummaryOutput, require("@cloudcost/pulumi-native/package.json").version].join(" ")',
        ],
        user,
        env,
      );
      expect(exported.trim()).toBe(`function function function function ${version}`);
      const before = plugins.requests.length;
      // No plugin but the release's: the workspace's own (native/bin, linked into node_modules/.bin, which
      // `npx jest` puts on the PATH) would be found on the PATH before any download.
      const path = (process.env.PATH ?? "").split(":").filter((dir) => !dir.includes("node_modules"));
      const ws = new PulumiWorkspace({
        env: {
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
          PATH: [pulumiCliBin(), dirname(process.execPath), ...path].join(":"),
        },
      });
      try {
        const stack = await ws.initStack("release", user, [
          { key: "cloudcost:apiUrl", value: sandbox.baseUrl },
          { key: "cloudcost:apiToken", value: token, secret: true },
        ]);
        await stack.must(["up", "--yes", "--skip-preview"]);
        expect(plugins.requests.slice(before)).toContain(`/releases/v${version}/pulumi-resource-cloudcost-v${version}-linux-amd64.tar.gz`);
        const installed = await ws.must(["plugin", "ls", "--json"], user);
        expect(JSON.parse(installed.stdout)).toEqual(
          expect.arrayContaining([expect.objectContaining({ name: "cloudcost", kind: "resource", version })]),
        );
        const { CloudCostClient } = await import("@cloudcost/api");
        const names: string[] = [];
        for await (const g of new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: token } }).listGroups()) names.push(g.name);
        expect(names).toContain("Released group");
        await stack.must(["destroy", "--yes", "--skip-preview"]);
      } finally {
        ws.dispose();
      }
    });

    test("npm: @cloudcost/api from Verdaccio, as published by the release, talks to a sandbox", async () => {
      const { version } = release;
      const registry = await npmRegistry();
      const user = join(root, "npm-user");
      mkdirSync(user);
      writeFileSync(join(user, "package.json"), JSON.stringify({ name: "try-api", private: true, version: "1.0.0" }));
      await sh("npm", ["install", "--no-audit", "--no-fund", `@cloudcost/api@${version}`], user, npmEnv(registry));
      const listed = await sh(
        "node",
        [
          "-e",
          `const { CloudCostClient } = require("@cloudcost/api");
           (async () => { const c = new CloudCostClient({ baseUrl: process.env.URL, auth: { apiToken: process.env.TOKEN } });
             const g = await c.createGroup({ name: "From npm" }); console.log(require("@cloudcost/api/package.json").version, g.name); })();`,
        ],
        user,
        userEnv({ URL: sandbox.baseUrl, TOKEN: token }),
      );
      expect(listed.trim()).toBe(`${version} From npm`);
    });

    test("PyPI: the wheel and sdist uploaded by twine to pypiserver; pip installs pulumi_cloudcost, which names the release's plugin location", async () => {
      const { version } = release;
      const index = await startPypiServer(root);
      try {
        const files = release.artifacts.filter((a) => a.kind === "pypi").map((a) => a.file);
        publish.publishPypi({ out, files, repositoryUrl: `${index.url}/`, username: "ci", password: "ci" });
        const user = await virtualenv(join(root, "pypi-user"), []);
        const pipEnv = userEnv({ PIP_INDEX_URL: `${index.url}/simple/`, PATH: `${join(user, "bin")}:${process.env.PATH}` });
        for (const line of installLines("python", version)) await shell(line, user, pipEnv);
        const loaded = await sh(
          join(user, "bin", "python"),
          [
            "-c",
            "import importlib.metadata as m, importlib.resources as r, json, pulumi_cloudcost as c; print(c.CloudGroup.__name__, c.BudgetAlert.__name__, c.ScheduledReport.__name__, c.get_cost_summary_output.__name__, m.version('pulumi_cloudcost'), json.loads(r.files('pulumi_cloudcost').joinpath('pulumi-plugin.json').read_text())['server'])",
          ],
          user,
        );
        expect(loaded.trim()).toBe(`CloudGroup BudgetAlert ScheduledReport get_cost_summary_output ${version} ${plugins.downloadUrl}`);
      } finally {
        await index.stop();
      }
    });

    test("Go: the SDK and the provider modules from the release's GOPROXY tree; a program on the SDK builds", async () => {
      const { version } = release;
      const user = join(root, "go-user");
      mkdirSync(user);
      writeFileSync(join(user, "go.mod"), "module example.com/try-cloudcost\n\ngo 1.25\n");
      writeFileSync(
        join(user, "main.go"),
        'package main\n\nimport (\n\t"github.com/cloudcost/cloudcost-pulumi/sdk/go/cloudcost"\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n)\n\nfunc main() {\n\tpulumi.Run(func(ctx *pulumi.Context) error {\n\t\t_, err := cloudcost.NewCloudGroup(ctx, "g", &cloudcost.CloudGroupArgs{Name: pulumi.String("G")})\n\t\treturn err\n\t})\n}\n',
      );
      const upstream = (await sh("go", ["env", "GOPROXY"], user)).trim();
      const env = userEnv({
        GOPROXY: `file://${join(out, "goproxy")},${upstream}`,
        // Never published to the public checksum database.
        GONOSUMDB: "github.com/cloudcost/*",
        GOFLAGS: "-mod=mod -buildvcs=false",
        GOWORK: "off",
      });
      for (const line of installLines("go", version)) await shell(line, user, env);
      await goBuild(join(root, "go-program"), user, env);
      expect(readFileSync(join(user, "go.mod"), "utf8")).toContain(`github.com/cloudcost/cloudcost-pulumi/sdk/go v${version}`);
      const provider = JSON.parse(
        await sh(
          "go",
          ["mod", "download", "-json", `github.com/cloudcost/cloudcost-pulumi/terraform-provider-cloudcost@v${version}`],
          user,
          env,
        ),
      ) as { Version: string; Error?: string };
      expect(provider).toEqual(expect.objectContaining({ Version: `v${version}` }));
    });
  },
);
