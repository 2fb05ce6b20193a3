"use strict";
/**
 * The key that signs the Terraform provider's SHA256SUMS, through GnuPG (`gpg`, Debian's package): the tool the
 * Terraform and OpenTofu registries' publishing guides assume, which a maintainer's key (or a CI secret exported
 * from it) already lives in, and no new dependency for the repository. Every run has a keyring of its own
 * (GNUPGHOME in a temporary folder), so the maintainer's keyring is never written.
 *
 * - Publishing: CLOUDCOST_GPG_PRIVATE_KEY holds the armored secret key (`gpg --armor --export-secret-keys ID`),
 *   CLOUDCOST_GPG_PASSPHRASE its passphrase when it has one; it is imported into the run's keyring.
 * - Dry run without that key: a key generated for the run (RSA 3072, expiring in a day), never kept.
 */
const { mkdtempSync, rmSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { join } = require("node:path");
const { run } = require("./common.js");

/**
 * @typedef {{ keyId: string, armoredPublicKey: string, ephemeral: boolean, sign(file: string): string, close(): void }} Signer
 * @param {{ privateKey?: string, passphrase?: string }} secret
 * @returns {Signer}
 */
function openSigner({ privateKey, passphrase = "" }) {
  const home = mkdtempSync(join(tmpdir(), "cloudcost-release-gnupg-"));
  const env = { ...process.env, GNUPGHOME: home };
  const gpg = (args, input) => run("gpg", ["--batch", "--no-tty", "--pinentry-mode", "loopback", ...args], { env, input });
  try {
    if (privateKey) {
      gpg(["--import"], privateKey);
    } else {
      gpg([
        "--passphrase",
        "",
        "--quick-generate-key",
        "cloudcost release dry run <release-dry-run@cloudcost.invalid>",
        "rsa3072",
        "sign",
        "1d",
      ]);
    }
    const keyId = secretKeyId(gpg(["--with-colons", "--list-secret-keys"]));
    const armoredPublicKey = gpg(["--armor", "--export", keyId]);
    return {
      keyId,
      armoredPublicKey,
      ephemeral: !privateKey,
      /** A binary detached signature of FILE at FILE.sig (what the registries fetch as shasums_signature_url). */
      sign(file) {
        gpg(["--yes", "--passphrase-fd", "0", "--local-user", keyId, "--detach-sign", "--output", `${file}.sig`, file], passphrase);
        return `${file}.sig`;
      },
      close: () => closeKeyring(home, env),
    };
  } catch (err) {
    closeKeyring(home, env);
    throw err;
  }
}

/** Stops the gpg-agent the run's keyring started, then deletes the keyring. */
function closeKeyring(home, env) {
  try {
    run("gpgconf", ["--kill", "gpg-agent"], { env });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The long key ID of the one secret key in `--with-colons` output (the `sec` record's fifth field). */
function secretKeyId(colons) {
  const ids = colons
    .split("\n")
    .filter((line) => line.startsWith("sec:"))
    .map((line) => line.split(":")[4]);
  if (ids.length !== 1) throw new Error(`expected one signing key, found ${ids.length}`);
  return ids[0];
}

module.exports = { openSigner };
