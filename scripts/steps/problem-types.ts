/**
 * What the operation table records of each operation's problem answers (section 7): the shape its problem
 * `type` takes, from the document's `x-problem-type` (`{base_url}/errors/{errorType}` for interfaces A and D,
 * `{error_type_base}/{errorType}` for B; none for C, whose error format is not shown), and the error types
 * it declares per status. With `x-error-types` (interface B lists them per operation, section 7.2) a type
 * counts under the statuses its response component is used with anywhere in the document; otherwise the
 * types are those the operation's own examples of that status show (A and D publish no per-endpoint list).
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

export function problemTypesReader(document: JsonObject): (model: OperationModel) => ProblemTypes {
  const shape = typeof document['x-problem-type'] === 'string' ? document['x-problem-type'] : null;
  const statuses = componentStatuses(document);
  return (model) => {
    const declared = model.operation['x-error-types'];
    const responses = isObject(model.operation.responses) ? model.operation.responses : {};
    const byStatus: Record<string, string[]> = {};
    for (const [status, response] of Object.entries(responses)) {
      if (!/^[45]\d\d$/.test(status)) continue;
      const types = Array.isArray(declared)
        ? declared.map(String).filter((type) => statuses.get(type)?.has(status))
        : shape === null
          ? []
          : exampleTypes(document, response);
      if (types.length > 0) byStatus[status] = types;
    }
    return { shape, byStatus };
  };
}
