/**
 * The userToken rule of the API document (a part of `./insights.ts`): a module of its own, as the first-paint
 * script (src/prepaint, in the loader's file) checks `insights-user-token` with it and needs none of the limits.
 */

/** userToken format of the Insights event table: `[a-zA-Z0-9_-=/+]{1,128}`. */
export const USER_TOKEN_PATTERN = /^[\w\-=/+]{1,128}$/;

/**
 * Whether `token` is a valid userToken.
 * @example isValidUserToken('anonymous-1b2c') // true
 */
export const isValidUserToken = (token: unknown): token is string =>
  typeof token === 'string' && USER_TOKEN_PATTERN.test(token);
