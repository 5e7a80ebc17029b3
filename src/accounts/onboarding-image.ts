/**
 * Onboarding document images (sections 2.4 and 4.3): JPG or PNG, at most 10 MB. The client reads the
 * file's first bytes and size before uploading, so a wrong file is refused with a clear error instead of
 * a round trip; the part is sent with the content type the bytes show.
 */
import type { AccountsFacade } from '../../generated/accounts/operations.js';
import type { CallOptions } from '../runtime/contract.js';
import { RequestValidationError, type ValidationIssue } from '../runtime/errors.js';

type Upload = AccountsFacade['onboarding']['uploadImage'];
type UploadArgs = Parameters<Upload>[0];

/** Arguments of the checked upload: the file as bytes or a Blob (a File keeps its name). */
export type ImageUploadArgs = Omit<UploadArgs, 'body'> & {
  readonly body: { readonly type: 'FRONT' | 'BACK' | 'SELFIE'; readonly file: Blob | Uint8Array };
};

/** 10 MB read as 10 MiB (10 485 760 bytes), the larger reading: a file the server may take is never refused here. */
export const maxImageBytes = 10 * 1024 * 1024;

const signatures = [
  { type: 'image/jpeg', extension: 'jpg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/png', extension: 'png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
] as const;

/** The image type the first bytes show (JPEG or PNG), or undefined. */
export function imageTypeOf(head: Uint8Array): (typeof signatures)[number] | undefined {
  return signatures.find((signature) => signature.bytes.every((byte, index) => head[index] === byte));
}

/**
 * The issues of an image file from its first bytes (8 are enough) and its size: a JPG or PNG, not empty,
 * at most 10 MB. The client checks a file before uploading it; the sandbox checks the file it received.
 */
export function checkImageFile(head: Uint8Array, size: number): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!imageTypeOf(head))
    issues.push({ pointer: '/body/file', rule: 'image-type', message: 'must be a JPG or PNG image (its first bytes are neither)' });
  if (size > maxImageBytes)
    issues.push({
      pointer: '/body/file',
      rule: 'image-size',
      message: `must be at most 10 MB (${maxImageBytes} bytes); this file has ${size}`,
    });
  if (size === 0) issues.push({ pointer: '/body/file', rule: 'image-size', message: 'is empty' });
  return issues;
}

export function checkedImageUpload(upload: Upload) {
  return async (args: ImageUploadArgs, options?: CallOptions): Promise<Awaited<ReturnType<Upload>>> => {
    const { file } = args.body;
    const size = file instanceof Blob ? file.size : file.byteLength;
    const head = file instanceof Blob ? new Uint8Array(await file.slice(0, 8).arrayBuffer()) : file.subarray(0, 8);
    const detected = imageTypeOf(head);
    const issues = checkImageFile(head, size);
    if (issues.length > 0) throw new RequestValidationError('onboarding.uploadImage', issues);
    const name = file instanceof File ? file.name : `${args.body.type.toLowerCase()}.${detected!.extension}`;
    const part = new File([file], name, { type: detected!.type });
    return upload({ ...args, body: { ...args.body, file: part } } as unknown as UploadArgs, options);
  };
}
