/**
 * The project's own lint of a bundled spec, run by regenerate after Redocly's (and by `npm run lint:specs`):
 * rules of the contract that Redocly does not know. Any problem fails, one line each.
 *
 * `refusal-declared`: an operation whose request the contract can refuse declares how it is refused, a 400,
 * so that the refusal a checker, the sandbox or the platform answers is part of the contract. A request is
 * refusable when the operation has a request body, or a parameter whose schema constrains its value or, out
 * of the path, that is required. An operation whose only refusable inputs are path parameters may declare
 * a 404 instead: a malformed path value names no resource. An operation that takes no input (no parameter,
 * no body) refuses nothing: what is sent to it beyond that is not a request of the contract.
 */
import { isObject, type JsonObject, type OperationModel, operationsOf, resolveLocal } from '../openapi-model.js';
import { toAjvSchema } from './validators.js';

export interface ContractRule {
  readonly name: string;
  /** One line per problem of `document`, naming the operation and what to do. */
  problems(document: JsonObject): string[];
}

/**
 * Keywords ajv keeps that never refuse a value (toAjvSchema drops the other annotations). A string with
 * nothing else accepts any text, as every parameter arrives; any other keyword constrains it.
 */
const nonConstraining = new Set(['default', 'readOnly', 'writeOnly', 'contentMediaType', 'contentEncoding']);

/** The keywords of `schema` that can refuse a value, sorted; none for a bare string. */
function constraintsOf(document: JsonObject, schema: JsonObject): string[] {
  const compiled = toAjvSchema(resolveLocal(document, schema) ?? {}, '');
  if (!isObject(compiled)) return compiled === false ? ['false'] : [];
  return Object.keys(compiled)
    .filter((key) => !nonConstraining.has(key) && !(key === 'type' && compiled.type === 'string'))
    .sort();
}

/** What of an operation's request the contract can refuse: `header x-account-id (minimum, type)`, `the request body`. */
function refusableInputs(document: JsonObject, model: OperationModel): { readonly what: string; readonly inPath: boolean }[] {
  const inputs = model.parameters.flatMap((parameter) => {
    // A path parameter is always there once the path matched: only its schema can refuse it.
    const required = parameter.required && parameter.in !== 'path' ? ['required'] : [];
    const reasons = [...required, ...constraintsOf(document, parameter.schema)];
    return reasons.length > 0
      ? [{ what: `${parameter.in} ${parameter.name} (${reasons.join(', ')})`, inPath: parameter.in === 'path' }]
      : [];
  });
  // Any body is judged against its schema and content type, whatever the generators read of it.
  if (model.operation.requestBody !== undefined) inputs.push({ what: 'the request body', inPath: false });
  return inputs;
}

const declares = (model: OperationModel, status: string): boolean =>
  isObject(model.operation.responses) && (status in model.operation.responses || 'default' in model.operation.responses);

export const refusalDeclared: ContractRule = {
  name: 'refusal-declared',
  problems: (document) =>
    operationsOf(document).flatMap((model) => {
      const inputs = refusableInputs(document, model);
      if (inputs.length === 0 || declares(model, '400')) return [];
      const pathOnly = inputs.every((input) => input.inPath);
      if (pathOnly && declares(model, '404')) return [];
      return [
        `${model.operationId} (${model.method.toUpperCase()} ${model.path}) can refuse ${inputs.map((input) => input.what).join(', ')} but declares no 400: declare a 400 with the interface's problem response${pathOnly ? ' (or a 404, as only path values can be refused)' : ''}`,
      ];
    }),
};

export const contractRules: readonly ContractRule[] = [refusalDeclared];

/** Every problem of `document` under the contract rules, as `<rule>: <problem>` lines. */
export function contractProblems(document: JsonObject, rules: readonly ContractRule[] = contractRules): string[] {
  return rules.flatMap((rule) => rule.problems(document).map((problem) => `${rule.name}: ${problem}`));
}

/** Throws when `document` (the bundle of `root`) breaks a contract rule, listing every problem. */
export function lintContract(document: JsonObject, root: string): void {
  const problems = contractProblems(document);
  if (problems.length > 0)
    throw new Error(
      `contract lint found ${problems.length} problem(s) in ${root}:\n${problems.map((problem) => `  error ${problem}`).join('\n')}`,
    );
}
