import { describe, expect, it } from 'vitest';
import { withoutTrailingSlashes } from '../../src/runtime/text.js';

describe('withoutTrailingSlashes', () => {
  it.each([
    { given: 'https://pix.example.com/api/', want: 'https://pix.example.com/api' },
    { given: 'https://pix.example.com/api///', want: 'https://pix.example.com/api' },
    { given: 'https://pix.example.com/api', want: 'https://pix.example.com/api' },
    { given: '///', want: '' },
    { given: '', want: '' },
    { given: `/${'/'.repeat(100_000)}x`, want: `/${'/'.repeat(100_000)}x` },
  ])('$given.length characters -> $want.length', ({ given, want }) => {
    expect(withoutTrailingSlashes(given)).toBe(want);
  });
});
