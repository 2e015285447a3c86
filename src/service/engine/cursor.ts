/**
 * Browse cursors: the parameters and the position of the next page, as base64url of their JSON —
 * with the web platform's `TextEncoder` and `btoa`/`atob`, so the engine runs in a browser too.
 */

/**
 * The cursor of a browse position.
 * @example encodeCursor('query=chair', 1000) // 'eyJwIjoicXVlcnk9Y2hhaXIiLCJvIjoxMDAwfQ'
 */
export function encodeCursor(params: string, position: number): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ p: params, o: position }));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The state of a cursor (its JSON), or throws when the text is not base64url of JSON.
 * @example decodeCursor(encodeCursor('query=chair', 1000)) // { p: 'query=chair', o: 1000 }
 */
export function decodeCursor(cursor: string): { p?: unknown; o?: unknown } {
  const base64 = cursor.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as { p?: unknown; o?: unknown };
}
