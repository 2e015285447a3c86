/**
 * The significance of an A/B test's difference in click-through or conversion rate (document 2, "A/B
 * test": `clickSignificance`, `conversionSignificance`, "above 0.95 counts as significant").
 *
 * A two-proportion z-test on the pooled proportion, two-sided:
 *
 *   p₁ = x₁ / n₁, p₂ = x₂ / n₂, p = (x₁ + x₂) / (n₁ + n₂),
 *   z = (p₁ − p₂) / √(p (1 − p) (1/n₁ + 1/n₂)),
 *   p-value = 2 (1 − Φ(|z|)),  significance = 1 − p-value = 2 Φ(|z|) − 1 = erf(|z| / √2),
 *
 * where n is a variant's tracked searches and x its tracked searches with at least one click (with at
 * least one conversion) — the numerator and denominator of its `clickThroughRate` (`conversionRate`).
 * `null` when either variant has no tracked search (no rate to compare); 0 when the pooled proportion is
 * 0 or 1 (both variants identical: no evidence of a difference).
 *
 * Hand-worked case (also in the tests): n₁ = n₂ = 10, x₁ = 2, x₂ = 8 → p = 0.5,
 * √(0.25 × 0.2) = 0.2236068, z = −0.6 / 0.2236068 = −2.6832816, Φ(2.6832816) = 0.9963548,
 * significance = 0.9927096.
 */

/**
 * The error function, to about 1e-14: the Maclaurin series below 3, the continued fraction of erfc above.
 *
 * @example
 * erf(1) // 0.8427007929497149
 */
export function erf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x < 0) return -erf(-x);
  if (x === 0) return 0;
  if (x < 3) {
    // erf x = 2/√π Σ (−1)ⁿ x^(2n+1) / (n! (2n+1))
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n += 1) {
      term *= (-x * x) / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) break;
    }
    return (2 / Math.sqrt(Math.PI)) * sum;
  }
  if (x > 6) return 1;
  // erfc x = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …))))), evaluated from the tail.
  let fraction = x;
  for (let k = 80; k >= 1; k -= 1) fraction = x + k / 2 / fraction;
  return 1 - Math.exp(-x * x) / Math.sqrt(Math.PI) / fraction;
}

/**
 * The standard normal cumulative distribution Φ.
 *
 * @example
 * normalCdf(1.959963984540054) // 0.975
 */
export function normalCdf(z: number): number {
  return 0.5 * (1 + erf(z / Math.SQRT2));
}

/**
 * 1 − the two-sided p-value of the pooled two-proportion z-test of `x1 / n1` against `x2 / n2`; `null`
 * when `n1` or `n2` is 0.
 *
 * @example
 * twoProportionSignificance(2, 10, 8, 10) // 0.99271…
 */
export function twoProportionSignificance(x1: number, n1: number, x2: number, n2: number): number | null {
  if (n1 <= 0 || n2 <= 0) return null;
  const pooled = (x1 + x2) / (n1 + n2);
  const variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2);
  if (variance <= 0) return 0;
  const z = (x1 / n1 - x2 / n2) / Math.sqrt(variance);
  return erf(Math.abs(z) / Math.SQRT2);
}
