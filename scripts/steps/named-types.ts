/**
 * The naming scheme of the named types of every operation, shared by the operations step (which declares
 * them) and the README step (which documents them): `<Group><Name><Suffix>`, the operationId's two parts
 * in PascalCase (`feeRules.create` -> `FeeRulesCreate`) followed by what the type is. One flat name per
 * type, exported from the interface's subpath (`import type { FeeRulesCreateBody } from 'contrato/core-banking'`).
 */

/** The suffixes, in the order they are declared, and what each names. */
export const namedTypeSuffixes = {
  Params:
    'the argument of the facade method: `{ path?, query?, header?, body? }`, each required when the spec requires it, the idempotency header optional',
  Path: 'its path parameters (when it has any)',
  Query: 'its query parameters (when it has any)',
  Body: 'its request body (when it has one)',
  Result: 'what the facade method resolves to: the body of a success answer (undefined when it has none)',
  Item: 'one item of a page (paginated lists: what `…Items()` yields)',
} as const;
export type NamedTypeSuffix = keyof typeof namedTypeSuffixes;

export interface NamedType {
  readonly name: string;
  readonly suffix: NamedTypeSuffix;
  readonly operationId: string;
  /** The type, as TypeScript source over `operations` (types.ts) and the runtime contract. */
  readonly type: string;
}

const pascal = (text: string): string => text[0]!.toUpperCase() + text.slice(1);

/** `feeRules.create` -> `FeeRulesCreate`, the stem of every named type of the operation. */
export function namedTypeStem(operationId: string): string {
  return operationId.split('.').map(pascal).join('');
}
