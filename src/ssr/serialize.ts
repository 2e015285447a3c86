/**
 * The state a server render hands the browser, as a `<script type="application/json">`. Its content is record
 * data (untrusted): the HTML parser ends a script at the first `</script` whatever the JSON says, and `<!--` in a
 * script changes how the parser reads on. So every `<`, `>` and `&` of the JSON is written as its `\u` escape (it
 * can only occur inside JSON strings, where the escape means the same character), and U+2028 / U+2029 too (line
 * terminators to older JavaScript parsers, should the text ever be read as a script).
 */

const UNSAFE = /[<>&\u2028\u2029]/g;

/**
 * JSON of `value` that is safe as the content of a `<script>` element.
 *
 * @example
 * scriptJson({ name: '</script><script>alert(1)</script>' }) // '{"name":"\\u003c/script\\u003e…"}'
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An HTML attribute value, quoted with `"`. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
