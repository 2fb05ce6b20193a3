"use strict";
/**
 * What our OpenTofu build leaves out, as edits to copies of the pinned release's modules (scripts/go-module-copy.js;
 * issue 39): the cloud SDKs behind remote state, cloud key management and cloud module sources. Every configuration
 * here (the tests', the examples', the docs', the provider's acceptance tests) keeps its state in the `local` backend,
 * encrypts nothing with a cloud KMS, and takes modules from the filesystem or a registry. Yet most of what `tofu`
 * compiles beyond the Pulumi CLI's packages is those SDKs (client-go, Tencent's, Alibaba's, AWS's, Google's and Azure's
 * clients). Everything else OpenTofu does stays (the engine, providers, modules, the local, http, inmem, remote and
 * cloud backends, state encryption with pbkdf2, aes_gcm and external key providers).
 *
 *   backends        (internal/backend/init/init.go, the one table of backends) azurerm, consul, cos, gcs, kubernetes,
 *                   oss, pg and s3: a configuration naming one gets OpenTofu's own "Unsupported backend type" error,
 *                   with a detail that says why and what to use
 *   key providers   (internal/encryption/default_registry.go) aws_kms, gcp_kms, azure_vault and openbao: refused as
 *                   soon as a configuration declares one, as a key provider OpenTofu does not know
 *   module sources  (go-getter's getters, and OpenTofu's table of them) s3:: and gcs::: refused as a source type
 *                   OpenTofu cannot download
 *
 * Plain JavaScript with no dependencies: scripts/opentofu.js runs before `npm ci`.
 */

const TOFU = "github.com/opentofu/opentofu";
const GETTER = "github.com/hashicorp/go-getter";

/** Left out: the backend's name in a configuration → the name its package is imported under in init.go. */
const LEFT_OUT_BACKENDS = {
  azurerm: "backendAzure",
  consul: "backendConsul",
  cos: "backendCos",
  gcs: "backendGCS",
  kubernetes: "backendKubernetes",
  oss: "backendOSS",
  pg: "backendPg",
  s3: "backendS3",
};

/** Left out: key provider types of an `encryption` block, each also its package's name in internal/encryption/keyprovider. */
const LEFT_OUT_KEY_PROVIDERS = ["aws_kms", "gcp_kms", "azure_vault", "openbao"];

/** Left out: module source types (`s3::…`, `gcs::…`) → go-getter's type and file for each. */
const LEFT_OUT_MODULE_SOURCES = { gcs: "GCSGetter", s3: "S3Getter" };

const BACKEND_TABLE = "internal/backend/init/init.go";

/** init.go without the left-out backends' imports and entries, each named in RemovedBackends instead. */
function backendEdits() {
  const edits = Object.entries(LEFT_OUT_BACKENDS).flatMap(([name, alias]) => [
    { file: BACKEND_TABLE, what: `import of ${alias}`, pattern: new RegExp(`^\\t${alias} "[^"\\n]+"\\n`) },
    {
      file: BACKEND_TABLE,
      what: `entry of the "${name}" backend`,
      pattern: new RegExp(
        `^\\t\\t"${name}":\\s+func\\(enc encryption\\.StateEncryption\\) backend\\.Backend \\{ return ${alias}\\.New\\(enc\\) \\},\\n`,
      ),
    },
  ]);
  const removed = Object.keys(LEFT_OUT_BACKENDS)
    .map(
      (name) =>
        `\t\t${JSON.stringify(name)}: \`The "${name}" backend is left out of this build of OpenTofu (cloudcost-pulumi's ` +
        "scripts/opentofu-trims.js: its tests keep state in the local backend). Use an official OpenTofu release for " +
        "remote state.`,\n",
    )
    .join("");
  edits.push({
    file: BACKEND_TABLE,
    what: "the RemovedBackends table",
    pattern: /^\tRemovedBackends = map\[string\]string\{\n/,
    replacement: (opening) => opening + removed,
  });
  return edits;
}

/** default_registry.go without the left-out key providers' imports and registrations. */
function keyProviderEdits() {
  const file = "internal/encryption/default_registry.go";
  return LEFT_OUT_KEY_PROVIDERS.flatMap((name) => [
    { file, what: `import of the ${name} key provider`, pattern: new RegExp(`^\\t"${TOFU}/internal/encryption/keyprovider/${name}"\\n`) },
    {
      file,
      what: `registration of the ${name} key provider`,
      pattern: new RegExp(
        `^\\tif err := DefaultRegistry\\.RegisterKeyProvider\\(${name}\\.New\\(\\)\\); err != nil \\{\\n\\t\\tpanic\\(err\\)\\n\\t\\}\\n`,
      ),
    },
  ]);
}

/** OpenTofu's table of go-getter getters without the left-out module sources. */
function moduleSourceEdits() {
  return Object.entries(LEFT_OUT_MODULE_SOURCES).map(([name, getter]) => ({
    file: "internal/getmodules/getter.go",
    what: `the ${name} getter`,
    pattern: new RegExp(`^\\t"${name}":\\s+new\\(getter\\.${getter}\\),\\n`),
  }));
}

/** go-getter without the left-out getters: their files (the only ones importing the AWS and Google SDKs) and entries. */
function goGetterEdits() {
  return Object.entries(LEFT_OUT_MODULE_SOURCES).flatMap(([name, getter]) => [
    { file: `get_${name}.go`, what: `the ${getter}`, remove: true },
    { file: "get.go", what: `the ${name} entry of Getters`, pattern: new RegExp(`^\\t\\t"${name}":\\s+new\\(${getter}\\),\\n`) },
  ]);
}

/** The modules our build copies and edits: Go's module path → the edits to its copy. */
const TRIMS = {
  [TOFU]: [...backendEdits(), ...keyProviderEdits(), ...moduleSourceEdits()],
  [GETTER]: goGetterEdits(),
};

module.exports = { LEFT_OUT_BACKENDS, LEFT_OUT_KEY_PROVIDERS, LEFT_OUT_MODULE_SOURCES, TRIMS };
