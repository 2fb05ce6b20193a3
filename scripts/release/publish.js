"use strict";
/**
 * Publishing a release that scripts/release.js built: each registry by its own client, each only with its
 * credentials in the environment (RELEASING.md). The registry URLs are the clients' own settings
 * (`npm_config_registry`, twine's `--repository-url`), so the same functions publish to the local registries of
 * test/release and to the public ones.
 */
const { existsSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { REPO, run, cleanEnv, log } = require("./common.js");
const { pythonTools } = require("./python.js");

/** What each publishing step needs, by environment variable. */
const CREDENTIALS = {
  npm: ["NPM_TOKEN"],
  pypi: ["PYPI_TOKEN"],
  github: ["GITHUB_TOKEN"],
  signing: ["CLOUDCOST_GPG_PRIVATE_KEY"],
};

/** The credentials missing from ENV, as variable names. */
function missingCredentials(env = process.env) {
  return Object.values(CREDENTIALS)
    .flat()
    .filter((name) => !env[name]);
}

/**
 * `npm publish` of each tarball. USERCONFIG is an npmrc with the registry and its token; without one, a
 * temporary one is written from NPM_TOKEN for the registry npm is configured with.
 * @param {{ out: string, tarballs: string[], userconfig?: string, env?: NodeJS.ProcessEnv }} options
 */
function publishNpm({ out, tarballs, userconfig, env = process.env }) {
  let config = userconfig;
  if (!config) {
    const registry = run("npm", ["config", "get", "registry"]).trim();
    config = join(out, ".npmrc-publish");
    writeFileSync(config, `registry=${registry}\n${registry.replace(/^https?:/, "")}:_authToken=\${NPM_TOKEN}\n`, { mode: 0o600 });
  }
  const npmEnv = cleanEnv({ ...env, npm_config_userconfig: config, npm_config_update_notifier: "false" });
  for (const tarball of tarballs) {
    run("npm", ["publish", join(out, tarball), "--access", "public"], { cwd: out, env: npmEnv });
    log(`npm published ${tarball}`);
  }
}

/**
 * `twine upload` of the wheel and sdist: to REPOSITORY_URL with USERNAME/PASSWORD, or to PyPI as `__token__`
 * with PYPI_TOKEN.
 * @param {{ out: string, files: string[], repositoryUrl?: string, username?: string, password?: string }} options
 */
function publishPypi({ out, files, repositoryUrl, username = "__token__", password = process.env.PYPI_TOKEN ?? "" }) {
  const twine = join(pythonTools(), "twine");
  const target = repositoryUrl ? ["--repository-url", repositoryUrl] : [];
  run(twine, ["upload", "--non-interactive", "--disable-progress-bar", ...target, ...files.map((f) => join(out, f))], {
    env: cleanEnv({ TWINE_USERNAME: username, TWINE_PASSWORD: password }),
  });
  log(`uploaded ${files.join(", ")}`);
}

/**
 * The version commit and the release's tags in the repository: the scratch clone's changes applied, committed,
 * and tagged `v<ver>` (the release; the GitHub release's assets are under it) and `<folder>/v<ver>` per Go module.
 * @param {{ scratch: string, version: string, tags: string[] }} release
 */
function commitAndTag({ scratch, version, tags }) {
  if (run("git", ["status", "--porcelain"]).trim() !== "") throw new Error("the working tree has changes: commit or stash them first");
  run("git", ["add", "--all"], { cwd: scratch });
  const patch = run("git", ["diff", "--cached", "--binary"], { cwd: scratch });
  run("git", ["apply", "--index"], { input: patch });
  run("git", ["commit", "--quiet", "-m", `Release v${version}: versions and CHANGELOGs from the changesets`]);
  for (const tag of tags) run("git", ["tag", "-a", "-m", `Release v${version}`, tag]);
  log(`committed and tagged ${tags.join(", ")}`);
}

/**
 * Pushes the commit and tags, and creates the GitHub release with the Terraform provider's files and the plugin
 * tarballs as its assets (where the schema's pluginDownloadURL and the registry's download URLs point), with `gh`.
 * @param {{ out: string, version: string, assets: string[] }} release
 */
function publishGithub({ out, version, assets }) {
  run("git", ["push", "--quiet", "origin", "HEAD", "--follow-tags"]);
  const notes = join(out, "release-notes.md");
  if (!existsSync(notes)) writeFileSync(notes, `Release v${version}\n`);
  run("gh", ["release", "create", `v${version}`, "--title", `v${version}`, "--notes-file", notes, ...assets.map((a) => join(out, a))], {
    cwd: REPO,
  });
  log(`GitHub release v${version} created with ${assets.length} assets`);
}

module.exports = { publishNpm, publishPypi, commitAndTag, publishGithub, missingCredentials, CREDENTIALS };
