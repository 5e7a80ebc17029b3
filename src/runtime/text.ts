/** Small text helpers shared across the package. */

/**
 * `text` without its trailing slashes. A scan, not `/\/+$/`: that pattern backtracks quadratically on a long
 * run of slashes that does not end the text (test/specs/redos.test.ts audits every pattern of src/).
 */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 47) end -= 1;
  return text.slice(0, end);
}
