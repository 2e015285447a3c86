/**
 * The failure body of each API section, decided in one place: `{ "message": … }` everywhere (document 1,
 * Errors), with `status` too where the section's document shows it — Insights (`/1/events`,
 * `/1/usertokens/…`; document 2, Errors rule 1), Analytics and A/B tests (`/2/…`) and Usage (`/1/usage/…`,
 * document 3).
 */
const WITH_STATUS = [/^\/1\/events(\/|$)/, /^\/1\/usertokens\//, /^\/2\//, /^\/1\/usage\//];

/**
 * @example
 * failureBody('/2/searches', 400, 'index: required') // { status: 400, message: 'index: required' }
 * failureBody('/1/indexes/a/query', 404, 'Index a does not exist') // { message: 'Index a does not exist' }
 */
export function failureBody(path: string, status: number, message: string): Record<string, unknown> {
  return WITH_STATUS.some((pattern) => pattern.test(path)) ? { status, message } : { message };
}
