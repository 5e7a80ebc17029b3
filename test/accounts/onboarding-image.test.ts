/**
 * checkImageFile, the one statement of the image rules (R-A-onboarding-image-type, R-A-limit-onboarding-image)
 * that the client runs before an upload and the sandbox runs on the file it received: given the first bytes
 * and the size, want the rules broken.
 */
import { describe, expect, it } from 'vitest';
import { checkImageFile, maxImageBytes } from '../../src/accounts/onboarding-image.js';

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]);

describe('checkImageFile', () => {
  it.each([
    { given: 'a PNG', head: png, size: 2048, want: [] },
    { given: 'a JPG', head: jpeg, size: 2048, want: [] },
    { given: 'a PNG of exactly 10 MB', head: png, size: maxImageBytes, want: [] },
    { given: 'a PNG one byte above 10 MB', head: png, size: maxImageBytes + 1, want: ['image-size'] },
    { given: 'a GIF', head: Uint8Array.from([0x47, 0x49, 0x46, 0x38, 0x39, 0x61]), size: 2048, want: ['image-type'] },
    { given: 'an empty file', head: new Uint8Array(), size: 0, want: ['image-type', 'image-size'] },
    { given: 'neither, and too large', head: new Uint8Array(8), size: maxImageBytes + 1, want: ['image-type', 'image-size'] },
  ])('$given: $want', ({ head, size, want }) => {
    const issues = checkImageFile(head, size);
    expect(issues.map((issue) => issue.rule)).toEqual(want);
    for (const issue of issues) expect(issue.pointer).toBe('/body/file');
  });

  it('says the limit and the size of a file too large', () => {
    expect(checkImageFile(png, maxImageBytes + 1)[0]?.message).toBe(
      `must be at most 10 MB (10485760 bytes); this file has ${maxImageBytes + 1}`,
    );
  });
});
