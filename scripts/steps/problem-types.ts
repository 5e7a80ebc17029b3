/**
 * What the operation table records of each operation's problem answers (section 7): the shape its problem
 * `type` takes, from the document's `x-problem-types.shape` (`{base_url}/errors/{errorType}` for interfaces
 * A and D, `{error_type_base}/{errorType}` for B; none for C, whose error format is not shown), and the error
 * types it declares per status. With `x-error-types` (interface B lists them per operation, section 7.2) a
 * type counts under the statuses its response component is used with anywhere in the document. Without
 * (A and D publish no per-endpoint list), the document's `x-problem-types.catalogue` gives each kind's
 * statuses, and every example's type must be in it.
 */
import { isObject, type Json, type JsonObject, type OperationModel, resolveLocal } from '../openapi-model.js';

const responsePrefix = '#/components/responses/';

/** Response component name -> the statuses operations use it with, across the document. */
function componentStatuses(document: JsonObject): Map<string, Set<string>> {
  const statuses = new Map<string, Set<string>>();
  for (const item of Object.values(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || !isObject(operation.responses)) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        const ref = isObject(response) && typeof response.$ref === 'string' ? response.$ref : '';
        if (!ref.startsWith(responsePrefix)) continue;
        const name = ref.slice(responsePrefix.length);
        statuses.set(name, (statuses.get(name) ?? new Set()).add(status));
      }
    }
  }
  return statuses;
}

/** The last segment of each example's `type` in a response (the error type it shows). */
function exampleTypes(document: JsonObject, response: Json): string[] {
  const resolved = resolveLocal(document, response);
  if (!isObject(resolved) || !isObject(resolved.content)) return [];
  const types = new Set<string>();
  for (const media of Object.values(resolved.content)) {
    if (!isObject(media)) continue;
    const examples = isObject(media.examples) ? Object.values(media.examples) : [];
    const values = [...examples.map((example) => (isObject(example) ? example.value : undefined)), media.example];
    for (const value of values) {
      if (isObject(value) && typeof value.type === 'string') types.add(value.type.split('/').pop()!);
    }
  }
  return [...types].sort();
}

export interface ProblemTypes {
  readonly shape: string | null;
  readonly byStatus: Readonly<Record<string, readonly string[]>>;
}

/** The document's catalogue of error kinds: type -> statuses (`x-problem-types.catalogue`). */
function catalogueOf(document: JsonObject): Map<string, Set<string>> | null {
  const declared = isObject(document['x-problem-types']) ? document['x-problem-types'].catalogue : undefined;
  if (!isObject(declared)) return null;
  return new Map(Object.entries(declared).map(([type, statuses]) => [type, new Set(Array.isArray(statuses) ? statuses.map(String) : [])]));
}

export function problemTypesReader(document: JsonObject): (model: OperationModel) => ProblemTypes {
  const settings = isObject(document['x-problem-types']) ? document['x-problem-types'] : {};
  const shape = typeof settings.shape === 'string' ? settings.shape : null;
  const statuses = componentStatuses(document);
  const catalogue = catalogueOf(document);
  return (model) => {
    const declared = model.operation['x-error-types'];
    const responses = isObject(model.operation.responses) ? model.operation.responses : {};
    const byStatus: Record<string, string[]> = {};
    for (const [status, response] of Object.entries(responses)) {
      if (!/^[45]\d\d$/.test(status)) continue;
      if (catalogue) {
        const unlisted = exampleTypes(document, response).filter((type) => !catalogue.get(type)?.has(status));
        if (unlisted.length > 0)
          throw new Error(
            `${model.operationId} ${status}: the example type ${unlisted.join(', ')} is not in x-problem-types.catalogue under ${status}`,
          );
      }
      const types = Array.isArray(declared)
        ? declared.map(String).filter((type) => statuses.get(type)?.has(status))
        : [...(catalogue ?? new Map<string, Set<string>>())].filter(([, under]) => under.has(status)).map(([type]) => type);
      if (types.length > 0) byStatus[status] = types;
    }
    return { shape, byStatus };
  };
}
