"use strict";
/**
 * What our Pulumi CLI build leaves out, as edits to a copy of the pinned release's pkg/v3 module
 * (scripts/go-module-copy.js; issue 39). Every stack here (the tests', the examples', the docs', the demo's) keeps its
 * state in a local folder (`file://`) and its secrets with a passphrase or in Vault; nothing runs `pulumi env setup` or
 * `pulumi api`. Yet those pull in AWS's S3, KMS and IAM clients, Google's Cloud Storage and KMS clients, Azure's Blob
 * Storage, Key Vault and authorization clients, and pb33f/libopenapi, the largest library of the whole build. Everything
 * else the CLI does stays. Left out, each refused by name:
 *
 *   state           (backend/diy) the s3://, gs:// and azblob:// drivers (without the refusal, a scheme with no
 *                   driver counts as a Pulumi Cloud URL, and `pulumi login s3://…` asks for PULUMI_ACCESS_TOKEN)
 *   secrets         (secrets/cloud) the awskms://, gcpkms:// and azurekeyvault:// keepers (passphrase and hashivault://
 *                   stay: testkit's stacks keep their secrets in a 127.0.0.1 stand-in for Vault's transit engine)
 *   env setup       (cmd/esc/cli) `pulumi env setup aws` and `… azure`, hidden (`… gcp` stays: its SDK is the CLI's
 *                   anyway)
 *   pulumi api      (cmd/pulumi/cloud) the Pulumi Cloud REST API client and its OpenAPI parser
 *
 * Plain JavaScript with no dependencies: scripts/pulumi-cli.js runs before `npm ci`.
 */

const PKG = "github.com/pulumi/pulumi/pkg/v3";

/** The state backends' URL schemes whose drivers are left out → each driver's package in gocloud.dev/blob. */
const LEFT_OUT_STATE = { s3: "s3blob", gs: "gcsblob", azblob: "azureblob" };

/** The secrets providers' URL schemes whose keepers are left out (each keeper is gocloud.dev/secrets/<scheme>). */
const LEFT_OUT_SECRETS = ["awskms", "gcpkms", "azurekeyvault"];

/** A Go string literal: WHAT (a format with one %s, or a plain string) "is left out of this build …". */
const leftOut = (what) =>
  JSON.stringify(
    `${what} is left out of this build of the Pulumi CLI (cloudcost-pulumi's scripts/pulumi-cli-trims.js); use an official Pulumi CLI release`,
  );

/** An edit that deletes the import line of PACKAGE (blank or not, with its comment) from FILE. */
const dropImport = (file, pkg) => ({
  file,
  what: `import of ${pkg}`,
  pattern: new RegExp(`^\\t(?:\\w+ )?"${pkg.replaceAll(".", "\\.")}"[^\\n]*\\n`),
});

const BACKEND = "backend/diy/backend.go";
const BUCKET = "backend/diy/bucket.go";
const SECRETS = "secrets/cloud/manager.go";
const SETUP = "cmd/esc/cli/setup.go";

/**
 * State in cloud buckets: the drivers' imports and the openers backend.go registers for gs:// and azblob://, in their
 * place a refusal that names what is left out (without it, a URL of a scheme with no driver counts as a Pulumi Cloud
 * URL, and `pulumi login s3://…` asks for PULUMI_ACCESS_TOKEN).
 */
const stateEdits = [
  ...[...Object.values(LEFT_OUT_STATE).map((driver) => `gocloud.dev/blob/${driver}`), `${PKG}/authhelpers`].map((p) =>
    dropImport(BACKEND, p),
  ),
  {
    file: BACKEND,
    what: "IsDIYBackendURL",
    pattern: /^\treturn blob\.DefaultURLMux\(\)\.ValidBucketScheme\(u\.Scheme\)\n/,
    replacement: "\treturn blob.DefaultURLMux().ValidBucketScheme(u.Scheme) || leftOutSchemes[u.Scheme]\n",
  },
  {
    file: BACKEND,
    what: "the gs:// credentials mux and the azblob:// opener",
    pattern: /^\t\/\/ for gcp we want to support additional credentials\n[\s\S]*?\n(?=\tbucket, err := blobmux\.OpenBucket\(ctx, u\)\n)/,
    replacement: `\tif leftOutSchemes[p.Scheme] {\n\t\treturn nil, fmt.Errorf(${leftOut("the %s:// state backend")}, p.Scheme)\n\t}\n\n`,
  },
  // bucket.go's copy hook asks a bucket for the AWS SDK's CopyObjectInput; a stand-in type no driver here fills keeps
  // the hook (a no-op for file://) without the SDK.
  dropImport(BUCKET, "github.com/aws/aws-sdk-go-v2/service/s3"),
  {
    file: BUCKET,
    what: "the S3 copy input in Copy",
    pattern: /^\t\tvar input \*awss3\.CopyObjectInput\n/,
    replacement: "\t\tvar input *copyObjectInput\n",
  },
  {
    file: BUCKET,
    what: "the S3 copy input of fixupS3CopySource",
    pattern: /^func fixupS3CopySource\(input \*awss3\.CopyObjectInput\) \{\n/,
    replacement: "func fixupS3CopySource(input *copyObjectInput) {\n",
  },
  {
    file: "backend/diy/left_out.go",
    what: "the left-out schemes",
    text:
      "package diy\n\n" +
      "// What this build of the CLI leaves out (cloudcost-pulumi's scripts/pulumi-cli-trims.js).\n\n" +
      "// leftOutSchemes are the state backends' URL schemes whose drivers are left out: refused by name.\n" +
      `var leftOutSchemes = map[string]bool{${Object.keys(LEFT_OUT_STATE)
        .map((scheme) => `${JSON.stringify(scheme)}: true`)
        .join(", ")}}\n\n` +
      "// copyObjectInput stands in for the AWS SDK's s3.CopyObjectInput: no bucket's As fills it, so Copy never rewrites\n" +
      "// a copy source.\n" +
      "type copyObjectInput struct{ CopySource *string }\n",
  },
];

/** Cloud KMS secrets providers: the keepers' imports, and the gcpkms:// case of openKeeper. */
const secretsEdits = [
  ...[...LEFT_OUT_SECRETS.map((scheme) => `gocloud.dev/secrets/${scheme}`), "google.golang.org/api/cloudkms/v1", `${PKG}/authhelpers`].map(
    (p) => dropImport(SECRETS, p),
  ),
  {
    file: SECRETS,
    what: "the gcpkms:// case of openKeeper",
    pattern: /^\tcase gcpkms\.Scheme:\n[\s\S]*?\n(?=\tdefault:\n)/,
    replacement: `\tcase ${LEFT_OUT_SECRETS.map((scheme) => JSON.stringify(scheme)).join(", ")}:\n\t\treturn nil, fmt.Errorf(${leftOut("the %s:// secrets provider")}, u.Scheme)\n`,
  },
];

/** `pulumi env setup aws` and `… azure`: their files, and in their place hidden commands that refuse by name. */
const envSetupEdits = [
  ...["aws", "azure"].flatMap((cloud) => {
    const name = cloud === "aws" ? "AWS" : "Azure";
    return [
      { file: `cmd/esc/cli/setup_${cloud}.go`, what: `pulumi env setup ${cloud}`, remove: true },
      {
        file: SETUP,
        what: `the ${cloud} setup command`,
        pattern: new RegExp(`^\\tcmd\\.AddCommand\\(newSetup${name}Cmd\\(setup\\)\\)\\n`),
        replacement: `\tcmd.AddCommand(leftOutSetupCmd("${cloud}"))\n`,
      },
    ];
  }),
  {
    file: "cmd/esc/cli/setup_left_out.go",
    what: "the left-out setup commands",
    text: [
      "package cli",
      "",
      "// What this build of the CLI leaves out (cloudcost-pulumi's scripts/pulumi-cli-trims.js).",
      "",
      'import (\n\t"fmt"\n\n\t"github.com/spf13/cobra"\n)',
      "",
      "// leftOutSetupCmd is `pulumi env setup CLOUD`, left out: hidden, and refused by name.",
      "func leftOutSetupCmd(cloud string) *cobra.Command {",
      "\treturn &cobra.Command{",
      "\t\tUse:                cloud,",
      "\t\tHidden:             true,",
      "\t\tDisableFlagParsing: true,",
      "\t\tRunE: func(*cobra.Command, []string) error {",
      `\t\t\treturn fmt.Errorf(${leftOut("`pulumi env setup %s`")}, cloud)`,
      "\t\t},",
      "\t}",
      "}",
      "",
    ].join("\n"),
  },
];

/**
 * `pulumi api` (cmd/pulumi/cloud: a client of the Pulumi Cloud REST API, built at run time from its OpenAPI document with
 * pb33f/libopenapi, the largest library of the whole build): the command's files, and in their place a hidden `api`
 * command that says it is left out. What other commands take from the package stays (ResolveContext, APIError and its
 * envelopes), with a stand-in for the one type of the OpenAPI parser they name.
 */
const API_FILES = ["api", "describe", "describe_markdown", "fields", "list", "paginate", "pathmatch", "schema", "spec", "spec_fetch"];
const apiEdits = [
  ...API_FILES.map((name) => ({ file: `cmd/pulumi/cloud/${name}.go`, what: "pulumi api", remove: true })),
  {
    file: "cmd/pulumi/cloud/api_left_out.go",
    what: "the left-out pulumi api",
    text: [
      "package cloud",
      "",
      "// What this build of the CLI leaves out (cloudcost-pulumi's scripts/pulumi-cli-trims.js).",
      "",
      'import (\n\t"errors"\n\n\t"github.com/spf13/cobra"\n)',
      "",
      "// NewAPICmd is `pulumi api`, left out: hidden, and refused by name.",
      "func NewAPICmd() *cobra.Command {",
      "\treturn &cobra.Command{",
      '\t\tUse:    "api",',
      '\t\tShort:  "Call the Pulumi Cloud REST API (left out of this build)",',
      "\t\tHidden: true,",
      "\t\tRunE: func(*cobra.Command, []string) error {",
      `\t\t\treturn errors.New(${leftOut("`pulumi api`")})`,
      "\t\t},",
      "\t}",
      "}",
      "",
      "// ParamSpec stands in for the OpenAPI parameter of spec.go, which envelope.go's describedOp names.",
      "type ParamSpec struct{}",
      "",
    ].join("\n"),
  },
];

/** The modules our build copies and edits: Go's module path → the edits to its copy. */
const TRIMS = { [PKG]: [...stateEdits, ...secretsEdits, ...envSetupEdits, ...apiEdits] };

module.exports = { TRIMS };
