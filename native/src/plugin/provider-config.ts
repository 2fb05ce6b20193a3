import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { SETTINGS_ENV, type ConfigLookup } from "@cloudcost/pulumi/runtime";
import { fromStruct, unwrapped, type Props } from "./properties";

/*
 * Provider configuration: the `cloudcost:*` stack config of the default provider, or the inputs of an
 * explicit `new cloudcost.Provider(…)`. The engine sends them to CheckConfig, DiffConfig and Configure as
 * the provider's inputs (`args`); engines before args existed send `variables` keyed `cloudcost:config:<key>`.
 * Values the user did not set fall back to the CLOUDCOST_* environment (runtime/settings.ts), as for the
 * dynamic resources.
 */

export const CONFIG_KEYS = Object.keys(SETTINGS_ENV) as (keyof typeof SETTINGS_ENV)[];

/** A config value as the runtime takes it: a string, or undefined when not set. */
function asSetting(value: unknown): string | undefined {
  const plain = unwrapped(value);
  if (plain === undefined || plain === null) return undefined;
  return typeof plain === "string" ? plain : JSON.stringify(plain);
}

/** The lookup the runtime configures with, from a plain object of provider inputs. */
export function lookupOf(inputs: Props): ConfigLookup {
  return (key) => asSetting(inputs[key]);
}

/** The provider inputs of a Configure request. */
export function configureInputs(req: provproto.ConfigureRequest): Props {
  const args = req.getArgs();
  if (args) return fromStruct(args);
  const inputs: Props = {};
  req.getVariablesMap().forEach((value: string, key: string) => {
    const name = key.replace(/^cloudcost:(config:)?/, "");
    if (name !== key) inputs[name] = value;
  });
  return inputs;
}

/** Provider inputs that are not configuration keys (the engine's own `version` is allowed). */
export function unknownConfigKeys(inputs: Props): string[] {
  return Object.keys(inputs).filter((k) => k !== "version" && !k.startsWith("__") && !(CONFIG_KEYS as string[]).includes(k));
}

/** Which configuration keys differ between two sets of provider inputs. */
export function changedConfigKeys(olds: Props, news: Props): string[] {
  return CONFIG_KEYS.filter((k) => asSetting(olds[k]) !== asSetting(news[k]));
}
