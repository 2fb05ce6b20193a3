"use strict";
/**
 * The Go modules of a release: the Go SDK (sdk/go) and the Terraform provider (terraform-provider-cloudcost), each
 * published by a tag `<folder>/v<version>` (a module in a subfolder of its repository: go.dev/ref/mod#vcs-version),
 * and written as a module proxy tree (go.dev/ref/mod#goproxy-protocol: `<module>/@v/list`, `.info`, `.mod`, `.zip`)
 * that `GOPROXY=file://…` serves as the public proxy would serve the tags. The zip holds the module's files as git
 * tracks them (or would: a regenerated SDK file) in the scratch clone, under `<module>@<version>/`, with the repository's LICENSE when the folder has
 * none (what the proxy's zips of subfolder modules hold: golang.org/x/mod/zip, CreateFromVCS).
 */
const { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { dirname, join } = require("node:path");
const { run, artifact } = require("./common.js");

/** The repository's Go modules that a release tags, by folder. */
const GO_MODULES = ["sdk/go", "terraform-provider-cloudcost"];

/** @param {string} dir a module's folder @returns {string} its module path */
function modulePath(dir) {
  const path = /^module\s+(\S+)/m.exec(readFileSync(join(dir, "go.mod"), "utf8"))?.[1];
  if (!path) throw new Error(`${dir}/go.mod names no module`);
  return path;
}

/**
 * Adds the module in ROOT/FOLDER at VERSION (no `v`) to the proxy tree PROXY.
 * @param {{ root: string, folder: string, version: string, proxy: string, time?: string }} options
 * @returns {{ module: string, folder: string, version: string, tag: string, zip: string }}
 */
function writeModule({ root, folder, version, proxy, time = new Date().toISOString() }) {
  const source = join(root, folder);
  const module = modulePath(source);
  const v = `v${version}`;
  const at = join(proxy, module, "@v");
  mkdirSync(at, { recursive: true });
  const list = join(at, "list");
  const known = existsSync(list) ? readFileSync(list, "utf8").split("\n").filter(Boolean) : [];
  writeFileSync(list, [...new Set([...known, v])].join("\n") + "\n");
  writeFileSync(join(at, `${v}.info`), JSON.stringify({ Version: v, Time: time }));
  cpSync(join(source, "go.mod"), join(at, `${v}.mod`));

  const staging = mkdtempSync(join(tmpdir(), "cloudcost-gomod-"));
  try {
    const prefix = join(staging, `${module}@${v}`);
    const files = tracked(root, folder);
    for (const file of files) cpSync(join(source, file), join(prefix, file));
    if (!files.some((f) => /^LICENSE/i.test(f)) && existsSync(join(root, "LICENSE")))
      cpSync(join(root, "LICENSE"), join(prefix, "LICENSE"));
    const zip = join(at, `${v}.zip`);
    rmSync(zip, { force: true });
    // Files only, no directory entries (-D), no extra attributes (-X).
    run("zip", ["-q", "-r", "-D", "-X", zip, module.split("/")[0]], { cwd: staging });
    return { module, folder, version: v, tag: `${folder}/${v}`, zip };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The files of ROOT/FOLDER that git tracks or would (the release's regenerated SDK), relative to it, leaving out nested modules. */
function tracked(root, folder) {
  const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", folder], { cwd: root })
    .split("\0")
    .filter(Boolean)
    .map((f) => f.slice(folder.length + 1));
  const nested = files.filter((f) => f.endsWith("/go.mod")).map((f) => dirname(f) + "/");
  return files.filter((f) => !nested.some((n) => f.startsWith(n)));
}

/**
 * The release's Go modules as a proxy tree in OUT/goproxy; the zips are the artifacts.
 * @param {{ scratch: string, out: string, version: string }} release
 */
function releaseGoModules({ scratch, out, version }) {
  const proxy = join(out, "goproxy");
  const time = new Date(Number(run("git", ["log", "-1", "--format=%ct"], { cwd: scratch }).trim()) * 1000).toISOString();
  const modules = GO_MODULES.map((folder) => writeModule({ root: scratch, folder, version, proxy, time }));
  return { modules, artifacts: modules.map((m) => ({ ...artifact(m.zip, "go-module"), file: m.zip.slice(out.length + 1) })) };
}

module.exports = { releaseGoModules, writeModule, modulePath, GO_MODULES };
