/**
 * `contrato validate pix-notification <pix|rec|cobr> [file|-]`: a body the PSP POSTs to `<webhookUrl>/pix`,
 * `/rec` or `/cobr` (API Pix notifications) checked against its schema. The reading of the document and the
 * printing of the issues are the validate command's own, passed in, so every validate form reads and reports alike.
 */
import type { ValidationIssue } from '../runtime/errors.js';
import { checkPixNotification, isPixNotificationKind, pixNotificationKinds } from '../pix/notifications.js';
import { UsageError } from './arguments.js';

/** The issues of the notification named by `args` (`[kind, file]`); the kind is checked before the document is read. */
export function pixNotificationIssues(args: readonly string[], readDocument: (file: string | undefined) => unknown): ValidationIssue[] {
  const [kind, file, ...rest] = args;
  if (!kind || !isPixNotificationKind(kind))
    throw new UsageError(`unknown notification ${JSON.stringify(kind ?? '')}; known: ${pixNotificationKinds.join(', ')}`);
  if (rest.length > 0) throw new UsageError(`validate pix-notification takes a kind and one file, not ${JSON.stringify(rest[0])}`);
  return checkPixNotification(kind, readDocument(file));
}
