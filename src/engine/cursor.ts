/**
 * Browse cursors: the state of a browse (its parameters and the position reached) as base64url of UTF-8 JSON,
 * opaque to clients. Written with the web platform's `btoa`/`atob` and `TextEncoder`, which browsers, workers
 * and Node all have, so the engine needs no Node API.
 */

/** What a cursor carries: the URL-encoded parameters of the first call and the offset of the next hit. */
export interface CursorState {
  p: string;
  o: number;
}

/**
 * Encodes a browse state as a cursor.
 *
 * @example
 * encodeCursor({ p: 'query=chair', o: 1000 }) // 'eyJwIjoicXVlcnk9Y2hhaXIiLCJvIjoxMDAwfQ'
 */
export function encodeCursor(state: CursorState): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(JSON.stringify(state))) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Decodes a cursor into what it carries (not yet checked); throws on text that is not a cursor.
 *
 * @example
 * decodeCursor('eyJwIjoicXVlcnk9Y2hhaXIiLCJvIjoxMDAwfQ') // { p: 'query=chair', o: 1000 }
 */
export function decodeCursor(cursor: string): unknown {
  const base64 = cursor.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
}
