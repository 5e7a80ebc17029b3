import { expect } from 'vitest';
import type { FormatResult } from '../../src/formats/result.js';

/** A given/want row of a format table: `valid`, or a pattern the reason must match. */
export interface FormatCase {
  readonly given: string;
  readonly want: 'valid' | RegExp;
}

export function expectFormat(result: FormatResult, want: FormatCase['want']): void {
  if (want === 'valid') expect(result).toEqual({ valid: true });
  else expect(result.valid ? 'valid' : result.reason).toMatch(want);
}
