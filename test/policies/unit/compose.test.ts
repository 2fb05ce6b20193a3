import { budgetAlertCurrency, budgetTotalCap, defaultPolicies } from "@cloudcost/policies/library";

describe("composing a pack from our policy factories", () => {
  it("the default set is every policy once, as shipped", () => {
    const names = defaultPolicies().map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("budget-alert-currency");
    expect(budgetAlertCurrency()).toMatchObject({ name: "budget-alert-currency", enforcementLevel: "mandatory" });
  });

  it("a variant changes the enforcement level and the schema defaults, and nothing of the shipped policy", () => {
    const variant = budgetTotalCap({ enforcementLevel: "advisory", defaults: { maxTotalMonthlyAmount: { EUR: 250_000 } } });
    expect(variant.enforcementLevel).toBe("advisory");
    expect(variant.configSchema?.properties?.maxTotalMonthlyAmount?.default).toEqual({ EUR: 250_000 });
    const shipped = budgetTotalCap();
    expect(shipped.enforcementLevel).toBe("mandatory");
    expect(shipped.configSchema?.properties?.maxTotalMonthlyAmount?.default).toEqual({ USD: 1_000_000 });
  });

  it("refuses a default the policy's schema does not accept, naming the field", () => {
    expect(() => budgetAlertCurrency({ defaults: { allowedCurrencies: ["euro"] } })).toThrow(/budget-alert-currency.*allowedCurrencies/);
    // @ts-expect-error -- not a property of the policy: the type says so, and so does the factory at run time.
    expect(() => budgetAlertCurrency({ defaults: { allowedCurrency: ["EUR"] } })).toThrow(/allowedCurrency/);
  });
});
