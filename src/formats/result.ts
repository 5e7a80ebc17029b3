/** Outcome of a format check: valid, or the reason in plain words. */
export type FormatResult = { readonly valid: true } | { readonly valid: false; readonly reason: string };

export const valid: FormatResult = Object.freeze({ valid: true });

export function invalid(reason: string): FormatResult {
  return { valid: false, reason };
}

/** Runs checks in order and returns the first failure. */
export function firstFailure(...checks: ReadonlyArray<() => FormatResult>): FormatResult {
  for (const run of checks) {
    const result = run();
    if (!result.valid) return result;
  }
  return valid;
}
