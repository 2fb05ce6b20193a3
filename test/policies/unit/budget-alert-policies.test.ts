import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { Secret } from "@pulumi/policy";
import { readAlert } from "../../../policies/src/inputs/budget-alert";
import { CurrencyConfig, checkCurrency } from "../../../policies/src/policies/budget-alert-currency";
import { GroupScopeConfig, checkGroupScope } from "../../../policies/src/policies/budget-alert-group-scope";
import { MaxAmountConfig, checkMaxAmount } from "../../../policies/src/policies/budget-alert-max-amount";
import { AlertRecipientsConfig, checkAlertRecipients } from "../../../policies/src/policies/budget-alert-recipients";
import {
  ThresholdsConfig,
  checkThresholds,
  remediatedThresholds,
  withThresholds,
} from "../../../policies/src/policies/budget-alert-thresholds";

const alert = (props: Record<string, unknown>) =>
  readAlert({ name: "b", amount: 1000, groupId: "grp_0123456789", recipients: ["ops@example.com"], ...props });

describe("budget-alert-max-amount", () => {
  const config = MaxAmountConfig.parse({ maxMonthlyAmount: { USD: 3000, EUR: 2000 } });

  test("compares per month: quarterly ÷ 3 and annual ÷ 12", () => {
    expect(checkMaxAmount(alert({ amount: 3000 }), config)).toEqual([]);
    expect(checkMaxAmount(alert({ amount: 9000, period: "quarterly" }), config)).toEqual([]);
    expect(checkMaxAmount(alert({ amount: 36000, period: "annual" }), config)).toEqual([]);
    const [quarterly] = checkMaxAmount(alert({ amount: 9300, period: "quarterly" }), config);
    expect(quarterly).toContain("9,300 USD per quarter (3,100 USD per month) is above the maximum of 3,000 USD per month");
    expect(quarterly).toContain("lower amount to at most 9,000 USD or raise maxMonthlyAmount.USD");
    expect(checkMaxAmount(alert({ amount: 36012, period: "annual" }), config)).toHaveLength(1);
  });

  test("uses the cap of the alert's own currency (default USD) and leaves other currencies alone", () => {
    expect(checkMaxAmount(alert({ amount: 2500, currency: "EUR" }), config)).toHaveLength(1);
    expect(checkMaxAmount(alert({ amount: 2500 }), config)).toEqual([]);
    expect(checkMaxAmount(alert({ amount: 1e9, currency: "JPY" }), config)).toEqual([]);
  });

  test("an unknown or ill-typed amount is not judged", () => {
    expect(checkMaxAmount(alert({ amount: unknownValue }), config)).toEqual([]);
    expect(checkMaxAmount(alert({ amount: "lots" }), config)).toEqual([]);
    expect(checkMaxAmount(alert({ amount: 1e9, period: unknownValue }), config)).toEqual([]);
  });
});

describe("budget-alert-currency", () => {
  const config = CurrencyConfig.parse({ allowedCurrencies: ["EUR", "GBP"] });
  test("rejects a currency outside the list, including the USD default", () => {
    expect(checkCurrency(alert({ currency: "EUR" }), config)).toEqual([]);
    expect(checkCurrency(alert({}), config)).toEqual(['currency "USD" is not allowed: set currency to one of EUR, GBP']);
  });
  test("the default config allows USD only; unknown currencies are not judged", () => {
    const defaults = CurrencyConfig.parse({});
    expect(checkCurrency(alert({}), defaults)).toEqual([]);
    expect(checkCurrency(alert({ currency: "EUR" }), defaults)).toHaveLength(1);
    expect(checkCurrency(alert({ currency: unknownValue }), defaults)).toEqual([]);
  });
});

describe("budget-alert-thresholds", () => {
  const defaults = ThresholdsConfig.parse({});

  test("by default needs an actual threshold at 100% and a forecast threshold", () => {
    const omitted = checkThresholds(alert({}), defaults);
    expect(omitted).toHaveLength(1);
    expect(omitted[0]).toContain("0 forecast threshold(s) but needs at least 1");
    const good = [
      { percent: 100, basis: "actual" },
      { percent: 90, basis: "forecast" },
    ];
    expect(checkThresholds(alert({ thresholds: good }), defaults)).toEqual([]);
    const noActual = checkThresholds(
      alert({
        thresholds: [
          { percent: 80, basis: "actual" },
          { percent: 100, basis: "forecast" },
        ],
      }),
      defaults,
    );
    expect(noActual).toEqual(['the required threshold { percent: 100, basis: "actual" } is missing: add it to thresholds']);
  });

  test("a list with an unknown element, or an unknown list, is not judged", () => {
    expect(checkThresholds(alert({ thresholds: [unknownValue] }), defaults)).toEqual([]);
    expect(checkThresholds(alert({ thresholds: unknownValue }), defaults)).toEqual([]);
  });

  test("remediation adds the missing required and forecast thresholds, and nothing when complete", () => {
    expect(remediatedThresholds(alert({}), defaults)).toEqual([
      { percent: 100, basis: "actual" },
      { percent: 100, basis: "forecast" },
    ]);
    const config = ThresholdsConfig.parse({ minForecastThresholds: 2, remediationForecastPercents: [80, 100] });
    expect(remediatedThresholds(alert({ thresholds: [{ percent: 100, basis: "forecast" }] }), config)).toEqual([
      { percent: 100, basis: "forecast" },
      { percent: 100, basis: "actual" },
      { percent: 80, basis: "forecast" },
    ]);
    expect(
      remediatedThresholds(
        alert({
          thresholds: [
            { percent: 100, basis: "actual" },
            { percent: 50, basis: "forecast" },
          ],
        }),
        defaults,
      ),
    ).toBeUndefined();
    expect(remediatedThresholds(alert({ thresholds: [unknownValue] }), defaults)).toBeUndefined();
  });

  test("the remediated inputs keep secrets wrapped and unknown values as they were", () => {
    const webhook = new Secret("https://hooks.example.com/x");
    const copy = withThresholds({ amount: 5, webhookUrl: webhook, groupId: unknownValue }, [{ percent: 100, basis: "actual" }]);
    expect(copy).toEqual({ amount: 5, webhookUrl: webhook, groupId: unknownValue, thresholds: [{ percent: 100, basis: "actual" }] });
    expect(withThresholds({ thresholds: new Secret([]) }, []).thresholds).toBeInstanceOf(Secret);
  });
});

describe("budget-alert-recipients", () => {
  const config = AlertRecipientsConfig.parse({ allowedEmailDomains: ["example.com"] });

  test("needs at least one recipient", () => {
    expect(checkAlertRecipients(alert({ recipients: undefined }), config)).toEqual([
      "the alert has 0 recipient(s) but needs at least 1: add e-mail addresses to recipients",
    ]);
    expect(checkAlertRecipients(alert({ recipients: [unknownValue] }), config)).toEqual([]);
  });

  test("allows the domain and its subdomains, case-insensitively, and names only the domain of a bad address", () => {
    expect(checkAlertRecipients(alert({ recipients: ["A@Example.COM", "b@eu.example.com"] }), config)).toEqual([]);
    const messages = checkAlertRecipients(alert({ recipients: ["ok@example.com", "secret.person@notexample.com"] }), config);
    expect(messages).toEqual(['recipients[1] uses the domain "notexample.com", which is not allowed: use an address in example.com']);
    expect(messages.join()).not.toContain("secret.person");
  });

  test("an empty domain list allows any domain", () => {
    expect(checkAlertRecipients(alert({ recipients: ["x@anything.org"] }), AlertRecipientsConfig.parse({}))).toEqual([]);
  });
});

describe("budget-alert-group-scope", () => {
  test("an alert without groupId is organization-wide and needs allowOrganizationWide", () => {
    const deny = GroupScopeConfig.parse({});
    expect(checkGroupScope(alert({ groupId: undefined }), deny)).toHaveLength(1);
    expect(checkGroupScope(alert({ groupId: undefined }), GroupScopeConfig.parse({ allowOrganizationWide: true }))).toEqual([]);
    expect(checkGroupScope(alert({}), deny)).toEqual([]);
    // In preview a group created in the same deployment has no id yet: the alert is still scoped.
    expect(checkGroupScope(alert({ groupId: unknownValue }), deny)).toEqual([]);
  });
});
