import { z } from "@cloudcost/api";
import { readConfig, toConfigSchema } from "../../../policies/src/config/schema";
import { defaultPolicies } from "../../../policies/src/policies";

describe("policy configuration schemas", () => {
  test("every policy advertises a JSON schema whose defaults its own parser accepts", () => {
    for (const p of defaultPolicies()) {
      expect(p.configSchema).toBeDefined();
      const defaults = Object.fromEntries(
        Object.entries(p.configSchema!.properties)
          .filter(([, s]) => "default" in s)
          .map(([k, s]) => [k, s.default]),
      );
      const jsonSchema = z.fromJSONSchema({ type: "object", properties: p.configSchema!.properties } as never);
      expect(jsonSchema.safeParse(defaults).success).toBe(true);
    }
  });

  test("optional fields are not required and defaults are part of the schema", () => {
    const schema = toConfigSchema(z.object({ a: z.number().default(2), b: z.string().optional() }));
    expect(schema).toEqual({ properties: { a: { type: "number", default: 2 }, b: { type: "string" } } });
  });

  test("a configuration that does not fit is rejected with the policy name and field", () => {
    const schema = z.object({ max: z.number().gt(0).default(1) });
    expect(readConfig({ getConfig: <T>() => ({ max: 3 }) as T }, schema, "p")).toEqual({ max: 3 });
    expect(() => readConfig({ getConfig: <T>() => ({ max: -1 }) as T }, schema, "p")).toThrow(
      /policy configuration of "p" is invalid: max: /,
    );
  });
});
