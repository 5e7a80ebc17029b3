/**
 * The bundled specs as the reference pages show them: each operation names its operationId and client
 * method, provisional operations are marked where a reader sees them, and the webhook deliveries get a
 * document of their own with only the components they use.
 */

/** An object of a bundled spec; its members are `unknown` until read and checked. */
type Json = Record<string, unknown>;

/** Whether a member of a spec is an object (not null, not an array). */
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The bundle as Redoc shows it: each operation names its operationId and the client method it becomes,
 * and provisional operations say so in their summary and description.
 */
export function forReading(document: Json): Json {
  const copy = structuredClone(document);
  for (const item of Object.values((copy.paths ?? {}) as Record<string, Json>)) {
    for (const operation of Object.values(item)) {
      if (!isObject(operation) || typeof operation.operationId !== 'string') continue;
      const lead = [`operationId \`${operation.operationId}\` · client method \`client.${operation.operationId}()\``];
      if (operation['x-provisional'] === true) {
        operation.summary = `[Provisional] ${String(operation.summary ?? operation.operationId)}`;
        lead.push(`**Provisional** — ${String(operation['x-provisional-reason'] ?? 'the method or path is not shown by the provider')}`);
      }
      operation.description = `${lead.join('\n\n')}\n\n${String(operation.description ?? '')}`;
    }
  }
  for (const [type, item] of Object.entries((copy.webhooks ?? {}) as Record<string, Json>)) {
    const operation = item.post as Json | undefined;
    if (!operation || typeof operation.operationId !== 'string') continue;
    operation.description = `operationId \`${operation.operationId}\` · event type \`${type}\`, parsed by \`parseEvent\` of \`contrato/events\`\n\n${String(operation.description ?? '')}`;
  }
  return copy;
}

/**
 * The components `root` refers to, directly or through each other (`$ref`s and discriminator mappings,
 * every string `#/components/<kind>/<name>`), taken from `components`. Security schemes are kept whole.
 */
function componentsUsedBy(root: unknown, components: Json): Json {
  const used: Record<string, Json> = {};
  const pending: unknown[] = [root];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(value);
      if (!match) return;
      const [, kind = '', name = ''] = match;
      const found = (components[kind] as Json | undefined)?.[name];
      if (found === undefined || (used[kind] as Json | undefined)?.[name] !== undefined) return;
      used[kind] = { ...used[kind], [name]: found };
      pending.push(found);
    } else if (Array.isArray(value)) pending.push(...value);
    else if (isObject(value)) pending.push(...Object.values(value));
  };
  while (pending.length > 0) visit(pending.pop());
  const ordered: Json = {};
  for (const kind of Object.keys(components)) {
    if (kind === 'securitySchemes') ordered[kind] = components[kind];
    else if (used[kind])
      ordered[kind] = Object.fromEntries(
        Object.keys(components[kind] as Json)
          .filter((name) => name in used[kind]!)
          .map((name) => [name, used[kind]![name]]),
      );
  }
  return ordered;
}

/**
 * The webhook deliveries of a document on a page of their own: paths left out, and of the components
 * only those the deliveries use (the rest is the accounts API's, already on its own page).
 */
export function eventsDocument(document: Json): Json {
  return {
    openapi: document.openapi,
    info: {
      ...(document.info as Json | undefined),
      title: 'Webhook events',
      description:
        'The deliveries of section 6: one per event type, with the payload schema, the deduplication reference and the resend schedule. Parse and check them with `contrato/events`.',
    },
    paths: {},
    webhooks: document.webhooks,
    components: componentsUsedBy(document.webhooks, (document.components ?? {}) as Json),
  };
}
