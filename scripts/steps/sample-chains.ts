/**
 * Which earlier calls a code sample makes, from the spec's Link Objects: an operation that a producer's
 * success response links to runs the producer's own sample call first (recursively, a few steps at most,
 * never an operation twice) and takes from it the values the link names — from its answer
 * (`$response.body#/id`, kept in a variable) or from its request (`$request.path.txid`, the same literal).
 */
import {
  isObject,
  type Json,
  type JsonObject,
  type LinkExpression,
  type LinkModel,
  linkedParameter,
  type OperationModel,
  parseLinkExpression,
  schemaAtPointer,
} from '../openapi-model.js';
import { pointerTokens } from '../../src/runtime/json-pointer.js';
import {
  identifierPattern,
  jqFilter,
  Linked,
  type SamplePlan,
  type SampleRequest,
  type SampleStep,
  type SampleValue,
} from './sample-sources.js';

/** How many producers a sample chains at most before its own call. */
export const maxChainDepth = 4;

/**
 * The producer an operation's sample runs first: among the operations whose success responses link to it
 * (none already in the chain), the one whose link is keyed by its operationId, else the first in table order.
 */
export function producerOf(
  models: readonly OperationModel[],
  consumer: OperationModel,
  excluded: ReadonlySet<string>,
): { readonly producer: OperationModel; readonly link: LinkModel } | null {
  const candidates = models.flatMap((producer) =>
    excluded.has(producer.operationId) || producer.operationId === consumer.operationId
      ? []
      : producer.links.filter((link) => link.operationId === consumer.operationId).map((link) => ({ producer, link })),
  );
  return candidates.find((each) => each.link.name === consumer.operationId) ?? candidates[0] ?? null;
}

const camel = (operationId: string): string =>
  operationId.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_whole, letter: string) => letter.toUpperCase());
const shouting = (text: string): string =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toUpperCase();

function typeOf(schema: JsonObject | null | undefined): 'string' | 'number' | null {
  const type = Array.isArray(schema?.type) ? schema.type.find((each) => each !== 'null') : schema?.type;
  return type === 'string' ? 'string' : type === 'integer' || type === 'number' ? 'number' : null;
}

/** A TypeScript expression reading a pointer from a variable, asserting what the types leave optional. */
function tsAccess(document: JsonObject, variable: string, schema: Json | undefined, tokens: readonly string[], maybeNone: boolean): string {
  let text = `${variable}${maybeNone ? '!' : ''}`;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    text += /^(0|[1-9][0-9]*)$/.test(token) ? `[${token}]` : identifierPattern.test(token) ? `.${token}` : `[${JSON.stringify(token)}]`;
    const step = schemaAtPointer(document, schema, `/${tokens.slice(0, index + 1).join('/')}`);
    if (step?.optional) text += '!';
  }
  return text;
}

/** Sets `value` at a JSON pointer of a body, making the objects on the way. */
function setAt(body: SampleValue | undefined, pointer: string, value: SampleValue): SampleValue {
  const tokens = pointerTokens(pointer);
  if (tokens.length === 0) return value;
  const root = isObject(body as Json) ? { ...(body as Record<string, SampleValue>) } : {};
  let current: Record<string, SampleValue> = root;
  for (const token of tokens.slice(0, -1)) {
    const next = current[token];
    const copy = isObject(next as Json) ? { ...(next as Record<string, SampleValue>) } : {};
    current[token] = copy;
    current = copy;
  }
  current[tokens.at(-1)!] = value;
  return root;
}

/** The value a request of a sample sent at a place a `$request` expression names. */
function requestValue(request: SampleRequest, expression: LinkExpression): SampleValue | undefined {
  if (expression.part === 'body') {
    let current: SampleValue | undefined = request.args.body;
    for (const token of pointerTokens(expression.pointer)) current = (current as Record<string, SampleValue> | undefined)?.[token];
    return current;
  }
  const named = { ...request.args[expression.part], ...(expression.part === 'header' ? request.addedHeaders : {}) };
  const key = Object.keys(named).find((name) => name.toLowerCase() === expression.name.toLowerCase());
  return key === undefined ? undefined : named[key];
}

/**
 * The plan of an operation's sample: the producers it runs first and its own request with their values in
 * place. `requestOf` gives an operation's request from the spec's examples (checked by the validators).
 */
export function samplePlanOf(
  document: JsonObject,
  models: readonly OperationModel[],
  model: OperationModel,
  requestOf: (model: OperationModel) => SampleRequest,
  chain: ReadonlySet<string> = new Set(),
): SamplePlan {
  const own = requestOf(model);
  const found = chain.size < maxChainDepth ? producerOf(models, model, new Set([...chain, model.operationId])) : null;
  if (!found) return { steps: [], request: own };
  const { producer, link } = found;
  const earlier = samplePlanOf(document, models, producer, requestOf, new Set([...chain, model.operationId]));
  const made = earlier.request;
  const variable = camel(producer.operationId);
  const responseSchema = producer.responses.find((response) => response.status === link.status)?.schema ?? undefined;
  // Several success answers make the result a union: the step reads the answer of the link's status, as typed.
  const successes = producer.responses.filter((response) => /^2\d\d$/.test(response.status));
  const linked = successes.find((response) => response.status === link.status);
  const resultType =
    successes.length > 1 && linked?.mediaType
      ? `operations['${producer.operationId}']['responses'][${link.status}]['content']['${linked.mediaType}']`
      : null;
  const maybeNone = resultType === null && successes.some((response) => response.mediaType === null);
  const captures: { variable: string; filter: string }[] = [];
  // Request headers of the producer a later step reads: the TypeScript call sends them itself, not the client.
  const sentHeaders: Record<string, SampleValue> = {};

  const linkedValueOf = (text: string, wanted: JsonObject | null, where: string): SampleValue => {
    const expression = parseLinkExpression(text);
    if (!expression)
      throw new Error(`code samples: ${producer.operationId} link ${link.name}: ${where}: ${text} is no supported expression`);
    if (expression.source === 'request') {
      const value = requestValue(made, expression);
      if (value === undefined)
        throw new Error(`code samples: ${producer.operationId} link ${link.name}: ${where}: its sample sends no ${text}`);
      if (expression.part === 'header' && !made.args.header?.[expression.name]) {
        const name = Object.keys(made.addedHeaders).find((each) => each.toLowerCase() === expression.name.toLowerCase());
        if (name) sentHeaders[name] = value;
      }
      return value;
    }
    const tokens = pointerTokens(expression.pointer);
    const shellVariable = `${shouting(producer.operationId)}_${shouting(tokens.at(-1) ?? 'answer')}`;
    if (!captures.some((each) => each.variable === shellVariable)) captures.push({ variable: shellVariable, filter: jqFilter(tokens) });
    const source = typeOf(schemaAtPointer(document, responseSchema, expression.pointer)?.schema);
    const target = typeOf(wanted) ?? source ?? 'string';
    const read = tsAccess(document, variable, responseSchema, tokens, maybeNone);
    // The answer's type and the parameter's may differ (an id answered as a number, sent in a path as text).
    const converted = source === target ? read : target === 'string' ? `String(${read})` : `Number(${read})`;
    return new Linked(converted, shellVariable, target);
  };

  const args = { ...own.args };
  const addedHeaders = { ...own.addedHeaders };
  for (const [key, text] of Object.entries(link.parameters)) {
    const parameter = linkedParameter(model, key);
    if (!parameter || parameter.in === 'cookie')
      throw new Error(`code samples: ${producer.operationId} link ${link.name}: ${key} names no parameter of ${model.operationId}`);
    const value = linkedValueOf(text, parameter.schema, key);
    const added = Object.keys(addedHeaders).find(
      (name) => parameter.in === 'header' && name.toLowerCase() === parameter.name.toLowerCase(),
    );
    if (added) addedHeaders[added] = value;
    else args[parameter.in] = { ...args[parameter.in], [parameter.name]: value };
  }
  for (const [pointer, text] of Object.entries(link.body)) {
    const wanted = model.requestBody ? (schemaAtPointer(document, model.requestBody.schema, pointer)?.schema ?? null) : null;
    args.body = setAt(args.body, pointer, linkedValueOf(text, wanted, `x-body ${pointer}`));
  }

  const producerRequest: SampleRequest =
    Object.keys(sentHeaders).length === 0
      ? made
      : {
          ...made,
          args: { ...made.args, header: { ...made.args.header, ...sentHeaders } },
          addedHeaders: Object.fromEntries(Object.entries(made.addedHeaders).filter(([name]) => !(name in sentHeaders))),
        };
  const step: SampleStep = {
    request: producerRequest,
    variable: captures.length > 0 ? variable : null,
    resultType: captures.length > 0 ? resultType : null,
    captures,
    answerVariable: `${shouting(producer.operationId)}_ANSWER`,
    why: `${model.operationId} acts on what ${producer.operationId} makes, so ${producer.operationId} runs first.`,
  };
  return { steps: [...earlier.steps, step], request: { model, args, addedHeaders } };
}
