/** JSON Pointer tokens (RFC 6901), the one implementation the runtime, CLI, docs and generators share. */
import { describe, expect, it } from 'vitest';
import { escapeToken, pointerTokens } from '../../src/runtime/json-pointer.js';

describe('pointerTokens', () => {
  it.each([
    { given: '', want: [] },
    { given: '/', want: [''] },
    { given: '/paths/~1fee-rules~1{id}/get', want: ['paths', '/fee-rules/{id}', 'get'] },
    { given: '/a~0b', want: ['a~b'] },
    { given: '/~01', want: ['~1'] },
    { given: '/items/0', want: ['items', '0'] },
  ])('$given → $want', ({ given, want }) => {
    expect(pointerTokens(given)).toEqual(want);
  });

  it.each(['a/b', 'c~d', '~1', '/fee-rules/{id}', ''])('escapeToken(%j) round-trips', (token) => {
    expect(pointerTokens(`/${escapeToken(token)}`)).toEqual([token]);
  });
});
