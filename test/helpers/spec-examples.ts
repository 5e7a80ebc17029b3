/** Named examples of a bundled spec, and valid call arguments built from them (contract and compatibility tests). */
import { isObject, operationsOf, resolveLocal, type JsonObject, type OperationModel } from '../../scripts/openapi-model.js';

export interface ExampleCase {
  readonly operation: OperationModel;
  readonly status: string;
  readonly example: string;
  readonly value: unknown;
}

function exampleValue(document: JsonObject, media: JsonObject, name: string): unknown {
  const example = resolveLocal(document, (media.examples as JsonObject)[name]);
  return isObject(example) ? example.value : undefined;
}

/** Arguments of a valid call: required path parameters and headers from their schema examples, the first body example. */
export function argsOf(document: JsonObject, operation: OperationModel): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const parameter of operation.parameters) {
    if (!parameter.required || parameter.name === operation.operation['x-idempotency-key']) continue;
    const value = parameter.example;
    if (value === undefined) throw new Error(`${operation.operationId}: parameter ${parameter.name} has no example`);
    const slot = (args[parameter.in] ??= {}) as Record<string, unknown>;
    slot[parameter.name] = value;
  }
  if (operation.requestBody) {
    const body = resolveLocal(document, operation.operation.requestBody) as JsonObject;
    const media = (body.content as JsonObject)[operation.requestBody.mediaType] as JsonObject;
    args.body = exampleValue(document, media, operation.requestBody.exampleNames[0]!);
  }
  return args;
}

/** Every named response example of every operation (one case without example for bodiless responses). */
export function exampleCases(document: JsonObject): ExampleCase[] {
  return operationsOf(document).flatMap((operation) =>
    operation.responses.flatMap((response) => {
      const raw = resolveLocal(document, (operation.operation.responses as JsonObject)[response.status]) as JsonObject;
      const media = isObject(raw.content) && response.mediaType ? (raw.content[response.mediaType] as JsonObject) : null;
      if (!media) return [{ operation, status: response.status, example: '', value: undefined }];
      // A response component shared by two statuses (404 and 410 of a payload location) holds an example
      // of each: a problem example belongs to the status its own `status` member repeats.
      return response.exampleNames
        .map((example) => ({ operation, status: response.status, example, value: exampleValue(document, media, example) }))
        .filter(
          ({ value }) =>
            !(
              isObject(value) &&
              typeof value.status === 'number' &&
              /^[45]/.test(response.status) &&
              String(value.status) !== response.status
            ),
        );
    }),
  );
}

/** Calls `client.<group>.<name>(args, options)` for an operationId. */
export function callByOperationId(client: object, operationId: string, args: object, options: object): Promise<unknown> {
  const [group, name] = operationId.split('.') as [string, string];
  const method = (client as Record<string, Record<string, (args: object, options: object) => Promise<unknown>>>)[group]![name]!;
  return method(args, options);
}
