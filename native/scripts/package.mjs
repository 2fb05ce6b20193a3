// `npm run package -w native [-- --out DIR] [--sea] [--version X.Y.Z --schema FILE]`: the plugin as Pulumi installs plugins, one tarball per
// platform for `pulumi plugin install resource cloudcost <version> --file <tarball>` (pulumi/pulumi
// sdk/go/common/workspace/plugins.go: the tarball's root holds the executable `pulumi-resource-cloudcost`).
//
// - Node form (every platform): the plugin bundled into one file (esbuild: the runtime, the contract,
//   gRPC and the SDK's stubs) beside a launcher that runs it with the `node` on the PATH (Node >= 22).
//   The same bundle serves every platform; only the launcher differs (a shell script, a .cmd on Windows).
// - Single-executable form (`--sea`, this machine's platform only): the bundle embedded in a copy of this
//   Node (Node's single executable applications, `node --build-sea`), nothing else needed on the machine.
//
// --version, --schema: the release (scripts/release/pulumi-plugin.js) packs the version it cuts, which the plugin
// reports and the tarballs are named by, and the schema it wrote for it (GetSchema's answer), before either is
// committed to package.json and schema.json.
//
// Run `npm run build` first (the bundle starts from native/dist).
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(dirname(fileURLToPath(import.meta.url)));
const NAME = "pulumi-resource-cloudcost";
const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"];

const { values } = parseArgs({
  options: { out: { type: "string" }, sea: { type: "boolean" }, version: { type: "string" }, schema: { type: "string" } },
});
const manifest = join(here, "package.json");
const version = values.version ?? JSON.parse(readFileSync(manifest, "utf8")).version;
const out = resolve(values.out ?? join(here, "dist", "plugins"));
mkdirSync(out, { recursive: true });

/** The plugin in one CommonJS file. */
async function bundle(outfile) {
  await build({
    entryPoints: [join(here, "dist", "plugin", "main.js")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    legalComments: "eof",
    logLevel: "warning",
    // The runtime looks up @pulumi/pulumi's engine stubs beside an unbundled install (engine-log.ts); this bundle
    // never takes that path: the plugin passes the stubs it bundles.
    logOverride: { "require-resolve-not-external": "silent" },
    plugins: [unknownValueOnly, packageVersion],
  });
}

/**
 * The runtime takes one constant from `@pulumi/pulumi/runtime`: the preview-unknown sentinel (runtime/unknowns.ts).
 * That entry loads the whole program runtime (npm's arborist, sigstore, …: an 18 MB bundle); the plugin gets the
 * same constant from the SDK's `runtime/rpc` module alone (4.5 MB).
 */
const unknownValueOnly = {
  name: "unknown-value-only",
  setup(b) {
    b.onResolve({ filter: /^@pulumi\/pulumi\/runtime$/ }, () => ({ path: "unknown-value", namespace: "pulumi-runtime" }));
    b.onLoad({ filter: /.*/, namespace: "pulumi-runtime" }, () => ({
      contents: 'module.exports = { unknownValue: require("@pulumi/pulumi/runtime/rpc").unknownValue };',
      resolveDir: here,
    }));
  },
};

/** The plugin's version (src/version.ts requires this package's manifest) and schema (plugin/schema-file.ts) are those being packed. */
const packageVersion = {
  name: "package-version",
  setup(b) {
    const schema = join(here, "schema.json");
    b.onLoad({ filter: /(package|schema)\.json$/ }, (args) => {
      if (args.path === manifest) {
        return { contents: JSON.stringify({ ...JSON.parse(readFileSync(manifest, "utf8")), version }), loader: "json" };
      }
      if (args.path === schema && values.schema) return { contents: readFileSync(resolve(values.schema), "utf8"), loader: "json" };
      return undefined;
    });
  },
};

function tarball(dir, platform, suffix = "") {
  const file = join(out, `${NAME}-v${version}-${platform}${suffix}.tar.gz`);
  execFileSync("tar", ["-czf", file, "-C", dir, "."]);
  return file;
}

const LAUNCHER_SH = `#!/bin/sh
# ${NAME} ${version}: the bundled plugin beside this script, run by the node on the PATH (Node >= 22).
# Only the shell itself: the PATH the CLI passes on may hold nothing but node.
exec node "\${0%/*}/${NAME}.js" "$@"
`;
const LAUNCHER_CMD = `@echo off\r\nnode "%~dp0\\${NAME}.js" %*\r\n`;

const work = mkdtempSync(join(tmpdir(), `${NAME}-`));
try {
  const js = join(work, `${NAME}.js`);
  await bundle(js);
  const written = [];
  for (const platform of PLATFORMS) {
    const dir = join(work, platform);
    mkdirSync(dir);
    copyFileSync(js, join(dir, `${NAME}.js`));
    if (platform.startsWith("windows")) writeFileSync(join(dir, `${NAME}.cmd`), LAUNCHER_CMD);
    else writeFileSync(join(dir, NAME), LAUNCHER_SH, { mode: 0o755 });
    written.push(tarball(dir, platform));
  }
  if (values.sea) {
    const os = { linux: "linux", darwin: "darwin", win32: "windows" }[process.platform];
    const arch = { x64: "amd64", arm64: "arm64" }[process.arch];
    const dir = join(work, "sea");
    mkdirSync(dir);
    const executable = join(dir, os === "windows" ? `${NAME}.exe` : NAME);
    const config = join(work, "sea-config.json");
    writeFileSync(config, JSON.stringify({ main: js, output: executable, disableExperimentalSEAWarning: true, useCodeCache: false }));
    execFileSync(process.execPath, ["--build-sea", config], { stdio: "pipe" });
    chmodSync(executable, 0o755);
    written.push(tarball(dir, `${os}-${arch}`, "-sea"));
  }
  for (const file of written) console.log(file);
} finally {
  rmSync(work, { recursive: true, force: true });
}
