import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One value of a stack's config, as `pulumi config set [--secret] KEY VALUE` takes it. */
export interface ConfigValue {
  key: string;
  value: string;
  secret?: boolean;
}

/**
 * A stack's config file (`Pulumi.<stack>.yaml`) written by the harness instead of one `pulumi config set` per value,
 * as a user who copies a stack's file to start another does. What only the CLI can write is taken from a stack the
 * workspace initialized the long way: the passphrase's salt and each secret's ciphertext, which stay valid in every
 * file with that salt (`pulumi stack init` keeps a salt it finds: pkg/secrets/passphrase/manager.go). Each
 * `pulumi config set` costs ~0.2 CPU s, and a CI run made ~320 of them for ~100 stacks (issue 39).
 */
export class StackFileTemplate {
  private constructor(
    private readonly salt: string,
    /** A secret's text → its ciphertext under `salt`. */
    private readonly ciphertexts: Map<string, string>,
  ) {}

  /**
   * The salt and the secrets' ciphertexts of the file STACK's `pulumi config set` calls wrote in CWD, or undefined
   * when the file is not in the shape this reads (then every stack goes the long way: slower, never wrong).
   */
  static read(cwd: string, stack: string, config: ConfigValue[]): StackFileTemplate | undefined {
    const path = stackFilePath(cwd, stack);
    if (!existsSync(path)) return undefined;
    const text = readFileSync(path, "utf8");
    const salt = /^encryptionsalt: (\S+)$/m.exec(text)?.[1];
    if (salt === undefined) return undefined;
    const ciphertexts = new Map<string, string>();
    for (const { key, value, secret } of config) {
      if (!secret) continue;
      const ciphertext = new RegExp(`^  ${escapeRegExp(key)}:\\n    secure: (\\S+)$`, "m").exec(text)?.[1];
      if (ciphertext === undefined) return undefined;
      ciphertexts.set(value, ciphertext);
    }
    return new StackFileTemplate(salt, ciphertexts);
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
    writeFileSync(path, JSON.stringify({ encryptionsalt: this.salt, config: values }, null, 2) + "\n");
    return true;
  }
}

function stackFilePath(cwd: string, stack: string): string {
  return join(cwd, `Pulumi.${stack}.yaml`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
