/**
 * How `<svc-search>` reads its Insights attributes: its property converters, and the first-paint script
 * (src/prepaint), which reads them before the element is defined, so that its first search asks what the
 * element's will (no Lit here: the script runs before it loads).
 */

/**
 * `insights`: on unless the value is exactly `"false"`.
 *
 * @example
 * insightsEnabledFrom('false') // false; insightsEnabledFrom(null) // true
 */
export const insightsEnabledFrom = (value: string | null): boolean => value !== 'false';

/**
 * `insights-consent`: absent means granted (the default); present, only `""`, `"true"` and `"granted"` grant
 * it. Any other value (`"false"`, `"denied"`, a typo) denies: a consent switch fails closed.
 *
 * @example
 * consentFrom('denied') // false; consentFrom(null) // true; consentFrom('granted') // true
 */
export const consentFrom = (value: unknown): boolean =>
  value == null || value === true || (typeof value === 'string' && /^(true|granted|)$/i.test(value.trim()));

/**
 * The consent of a `<svc-search>`, defined or not: its `insightsConsent` property when code set it (an own property
 * of the element not defined yet, which the element takes at its upgrade over the attribute, or the defined
 * element's own), else its `insights-consent` attribute.
 *
 * @example
 * consentOf(document.querySelector('svc-search')!) // true with neither
 */
export function consentOf(root: Element): boolean {
  const element = root as Element & { insightsConsent?: unknown };
  return consentFrom('insightsConsent' in element ? element.insightsConsent : element.getAttribute('insights-consent'));
}
