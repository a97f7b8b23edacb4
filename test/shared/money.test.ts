import { describe, expect, it } from "vitest";
import { BudgetExceededError } from "../../src/errors";
import { formatUsd, formatUsdAbove, formatUsdExactly } from "../../src/shared/money";

describe("money for people", () => {
  it("formatUsd: four decimals with separators; a positive amount too small to show is < $0.0001", () => {
    expect(formatUsd(0.0011849999999999999)).toBe("$0.0012");
    expect(formatUsd(0.00411)).toBe("$0.0041");
    expect(formatUsd(3.00015)).toBe("$3.0002");
    expect(formatUsd(1234.5)).toBe("$1,234.5000");
    expect(formatUsd(0.0001)).toBe("$0.0001");
    expect(formatUsd(0.00009999)).toBe("< $0.0001");
    expect(formatUsd(1e-7)).toBe("< $0.0001");
    expect(formatUsd(0)).toBe("$0.0000");
    expect(formatUsd(-0.5)).toBe("-$0.5000");
    expect(formatUsd(Number.NaN)).toBe("$NaN");
  });

  it("formatUsdExactly: an amount someone chose, in full, never with an exponent", () => {
    expect(formatUsdExactly(1e-7)).toBe("$0.0000001");
    expect(formatUsdExactly(0.5)).toBe("$0.50");
    expect(formatUsdExactly(3)).toBe("$3.00");
    expect(formatUsdExactly(1e-12)).toBe("$0.000000000001");
    expect(formatUsdExactly(2500)).toBe("$2,500.00");
  });

  it("formatUsdAbove: as many decimals as it takes to show the amount above the limit", () => {
    expect(formatUsdAbove(0.0012, 1e-7)).toBe("$0.0012");
    expect(formatUsdAbove(0.00012, 0.0001)).toBe("$0.00012");
    expect(formatUsdAbove(0.0000123, 1e-7)).toBe("$0.00001");
    expect(formatUsdAbove(3.00015, 0.5)).toBe("$3.0002");
  });

  it("a budget error says both amounts readably, while its fields stay exact", () => {
    const tiny = new BudgetExceededError(1e-7, 0.0011849999999999999);
    expect(tiny.message).toBe("The query cost $0.0012, over maxBudgetUsd $0.0000001.");
    expect(tiny.maxBudgetUsd).toBe(1e-7);
    expect(tiny.spentUsd).toBe(0.0011849999999999999);
    expect(new BudgetExceededError(0.0001, 0.00012).message).toBe(
      "The query cost $0.00012, over maxBudgetUsd $0.0001.",
    );
  });
});
