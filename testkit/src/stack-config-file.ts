import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One value of a stack's config, as `pulumi config set [--secret] KEY VALUE` takes it. */
export interface ConfigValue {
  key: string;
  value: string;
  secret?: boolean;
}

/**
 * The top-level keys of a stack's file that hold its secrets provider's state (workspace.ProjectStack): the passphrase's
 * salt, or a cloud secrets manager's URL and wrapped data key.
 */
const PROVIDER_STATE_KEYS = ["encryptionsalt", "secretsprovider", "encryptedkey"];

/**
 * A stack's config file (`Pulumi.<stack>.yaml`) written by the harness instead of one `pulumi config set` per value,
 * as a user who copies a stack's file to start another does. What only the CLI can write is taken from a stack the
 * workspace initialized the long way: the secrets provider's state (a passphrase's salt, or a cloud provider's wrapped
 * data key) and each secret's ciphertext, which stay valid in every file with that state (`pulumi stack init` keeps the
 * state it finds: pkg/secrets/passphrase/manager.go, pkg/secrets/cloud/manager.go). Each `pulumi config set` costs
 * 0.15–0.2 CPU s (a secret on the passphrase provider ~0.34: its key derivation), and a CI run made ~320 of them for
 * ~100 stacks (issue 39).
 */
export class StackFileTemplate {
  private constructor(
    /** The provider's state: each of PROVIDER_STATE_KEYS the file has, with its value. */
    private readonly providerState: Record<string, string>,
    /** A secret's text → its ciphertext under that state. */
    private readonly ciphertexts: Map<string, string>,
  ) {}

  /**
   * The provider's state and the secrets' ciphertexts of the file STACK's `pulumi config set` calls wrote in CWD, or
   * undefined when the file is not in the shape this reads (then every stack goes the long way: slower, never wrong).
   */
  static read(cwd: string, stack: string, config: ConfigValue[]): StackFileTemplate | undefined {
    const path = stackFilePath(cwd, stack);
    if (!existsSync(path)) return undefined;
    const text = readFileSync(path, "utf8");
    const providerState: Record<string, string> = {};
    for (const key of PROVIDER_STATE_KEYS) {
      const value = new RegExp(`^${key}: (\\S+)$`, "m").exec(text)?.[1];
      if (value !== undefined) providerState[key] = value;
    }
    if (Object.keys(providerState).length === 0) return undefined;
    const ciphertexts = new Map<string, string>();
    for (const { key, value, secret } of config) {
      if (!secret) continue;
      const ciphertext = new RegExp(`^  ${escapeRegExp(key)}:\\n    secure: (\\S+)$`, "m").exec(text)?.[1];
      if (ciphertext === undefined) return undefined;
      ciphertexts.set(value, ciphertext);
    }
    return new StackFileTemplate(providerState, ciphertexts);
  }

  /**
   * Writes STACK's file in CWD with CONFIG, before `pulumi stack init`, unless CWD has one already (an example's own
   * `Pulumi.dev.yaml`, whose values `pulumi config set` adds to) or CONFIG needs what this lacks (a key without its
   * namespace, a secret not seen); says whether it did. JSON, which is YAML too: every value is a string, as
   * `pulumi config set KEY VALUE` stores it; a secret is `{secure: <ciphertext>}`.
   */
  tryWrite(cwd: string, stack: string, config: ConfigValue[]): boolean {
    const path = stackFilePath(cwd, stack);
    const covered = config.every((c) => c.key.includes(":") && (!c.secret || this.ciphertexts.has(c.value)));
    if (!covered || existsSync(path)) return false;
    const values = Object.fromEntries(config.map((c) => [c.key, c.secret ? { secure: this.ciphertexts.get(c.value) } : c.value]));
    writeFileSync(path, JSON.stringify({ ...this.providerState, config: values }, null, 2) + "\n");
    return true;
  }
}

function stackFilePath(cwd: string, stack: string): string {
  return join(cwd, `Pulumi.${stack}.yaml`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
