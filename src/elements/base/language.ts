/**
 * An element's language without Lit: `SvcElement.language` and the first-paint script (src/prepaint), which fills
 * a hit list's `<template>` (numbers formatted for the language) before the element exists, read it the same way.
 */

/**
 * The `lang` of `node` or of its nearest ancestor that has one, crossing shadow roots; undefined when none has.
 *
 * @example
 * closestLang(document.querySelector('svc-hits')) // 'de' inside <div lang="de">
 */
export function closestLang(node: Node | null | undefined): string | undefined {
  for (let current = node; current; current = current.parentNode ?? (current as ShadowRoot).host) {
    const lang = (current as Element).getAttribute?.('lang');
    if (lang) return lang;
  }
  return undefined;
}

/**
 * The page's language: the document's `lang`, else the browser's, else `en`.
 *
 * @example
 * closestLang(element) ?? documentLanguage()
 */
export const documentLanguage = (): string => document.documentElement.lang || navigator.language || 'en';
