import { lastMonth, lastQuarter, monthToDate, thisQuarter } from "@cloudcost/pulumi";

const at = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe("date window helpers (UTC calendar periods)", () => {
  it("thisQuarter and lastQuarter are whole calendar quarters", () => {
    expect(thisQuarter(at("2026-11-22"))).toEqual({ from: "2026-10-01", to: "2026-12-31" });
    expect(lastQuarter(at("2026-11-22"))).toEqual({ from: "2026-07-01", to: "2026-09-30" });
    expect(lastQuarter(at("2026-10-01"))).toEqual({ from: "2026-07-01", to: "2026-09-30" });
  });

  it("reach back into the previous year in January and February", () => {
    expect(lastQuarter(at("2026-02-14"))).toEqual({ from: "2025-10-01", to: "2025-12-31" });
    expect(lastMonth(at("2026-01-31"))).toEqual({ from: "2025-12-01", to: "2025-12-31" });
  });

  it("lastMonth ends on the month's last day, leap years included; monthToDate ends today", () => {
    expect(lastMonth(at("2028-03-31"))).toEqual({ from: "2028-02-01", to: "2028-02-29" });
    expect(monthToDate(at("2026-11-22"))).toEqual({ from: "2026-11-01", to: "2026-11-22" });
  });
});
