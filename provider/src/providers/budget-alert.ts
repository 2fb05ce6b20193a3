import { dynamicProvider, packagedModule } from "../dynamic-provider";

/*
 * The BudgetAlert provider as this module's `module.exports`: Pulumi's closure serializer writes a captured module
 * as `require("<package>/<path>")` when it lives in node_modules, so `__provider` in state is one short
 * require instead of the provider's functions (issue 16 item 2; see dynamic-provider.ts).
 */
export = packagedModule(module, dynamicProvider("BudgetAlert"));
