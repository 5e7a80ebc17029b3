/** JSON Pointer (RFC 6901), written once for the runtime, the CLI, the docs and the generators. */

/** The unescaped reference tokens of a pointer: `/a~1b/c~0d` → `['a/b', 'c~d']`; `''` → `[]`. */
export function pointerTokens(pointer: string): string[] {
  // ~1 before ~0, so that `~01` stays `~1` (RFC 6901 section 4).
  return pointer === ''
    ? []
    : pointer
        .split('/')
        .slice(1)
        .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** One token escaped for use in a pointer: `a/b` → `a~1b`. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
