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
import {
  isObject,
  type JsonObject,
  type LinkModel,
  linkExpressionForms,
  linkedParameter,
  type OperationModel,
  operationsOf,
  parseLinkExpression,
  resolveLocal,
  schemaAtPointer,
} from '../openapi-model.js';
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

/** The spec file of a path by the specs' convention (`/ted/{id}` → `paths/ted_{id}.yaml`). */
const pathFileOf = (path: string): string => `paths/${path.slice(1).replace(/\//g, '_')}.yaml`;

/** What is wrong with one expression of a link of `producer`, or null when it is followed. */
function expressionProblem(document: JsonObject, producer: OperationModel, link: LinkModel, text: string): string | null {
  const expression = parseLinkExpression(text);
  if (!expression) return `${text} is no supported expression: use ${linkExpressionForms}`;
  if (expression.part !== 'body') {
    const known = producer.parameters.some(
      (each) => each.in === expression.part && each.name.toLowerCase() === expression.name.toLowerCase(),
    );
    return known ? null : `${text} names no ${expression.part} parameter of ${producer.operationId}`;
  }
  const schema =
    expression.source === 'request'
      ? producer.requestBody?.schema
      : producer.responses.find((response) => response.status === link.status)?.schema;
  if (!schema) return `${text} reads a ${expression.source} body ${producer.operationId} does not declare`;
  return schemaAtPointer(document, schema, expression.pointer)
    ? null
    : `${text}: ${expression.pointer || '(the whole body)'} is no member of the ${expression.source} body schema of ${producer.operationId}`;
}

/** The problems of one link, each `<why>: <what to do>`. */
function linkProblems(
  document: JsonObject,
  producer: OperationModel,
  link: LinkModel,
  byId: ReadonlyMap<string, OperationModel>,
): string[] {
  const consumer = byId.get(link.operationId);
  if (!consumer)
    return [
      link.operationId
        ? `operationId ${link.operationId} is no operation of this document`
        : 'names no operationId: give the consumer by operationId',
    ];
  const problems: string[] = [];
  for (const [key, text] of Object.entries(link.parameters)) {
    if (!linkedParameter(consumer, key))
      problems.push(
        `parameter ${key} names no single parameter of ${consumer.operationId}: use one of its names, qualified as path.<name>, query.<name> or header.<name> when two share it`,
      );
    const problem = expressionProblem(document, producer, link, text);
    if (problem) problems.push(`parameter ${key}: ${problem}`);
  }
  for (const [pointer, text] of Object.entries(link.body)) {
    if (!consumer.requestBody || !schemaAtPointer(document, consumer.requestBody.schema, pointer))
      problems.push(`x-body ${pointer} is no member of the request body of ${consumer.operationId}: point into its body schema`);
    const problem = expressionProblem(document, producer, link, text);
    if (problem) problems.push(`x-body ${pointer}: ${problem}`);
  }
  return problems;
}

/**
 * `link-valid`: every Link Object of a success response can be followed. Its operationId is an operation of the
 * same document; every parameter key names one parameter of that operation; every `x-body` pointer a member
 * of its request body; every expression is a supported form whose pointer resolves in the producer's
 * response (or request) schema, or whose parameter the producer has.
 */
export const linkValid: ContractRule = {
  name: 'link-valid',
  problems: (document) => {
    const models = operationsOf(document);
    const byId = new Map(models.map((model) => [model.operationId, model]));
    return models.flatMap((producer) =>
      producer.links.flatMap((link) =>
        linkProblems(document, producer, link, byId).map(
          (problem) => `${pathFileOf(producer.path)} ${producer.operationId} ${link.status} link ${link.name}: ${problem}`,
        ),
      ),
    );
  },
};

/** `sample-status-declared`: an operation's `x-sample-status` (the status its sample gets) is a success status it declares. */
export const sampleStatusDeclared: ContractRule = {
  name: 'sample-status-declared',
  problems: (document) =>
    operationsOf(document).flatMap((model) => {
      const status = model.operation['x-sample-status'];
      if (status === undefined) return [];
      const declared = model.responses.some((response) => /^2\d\d$/.test(response.status) && response.status === String(status));
      return declared
        ? []
        : [
            `${pathFileOf(model.path)} ${model.operationId}: x-sample-status ${String(status)} is no success status it declares: name one of its 2xx responses`,
          ];
    }),
};

export const contractRules: readonly ContractRule[] = [refusalDeclared, linkValid, sampleStatusDeclared];

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
