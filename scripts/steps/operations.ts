/**
 * The operation table and the typed facade of an interface, emitted with ts-morph from the bundle:
 * `client.<group>.<name>(args)` for every operationId `<group>.<name>`, and the named types of every
 * operation (`FeeRulesCreateParams`, `FeeRulesCreateBody`, `FeeRulesCreateResult`, ...; see namedTypesOf)
 * that the facade's signatures use and `named-types.ts` re-exports for the package's subpaths.
 */
import { IndentationText, Project, QuoteKind, VariableDeclarationKind, type CodeBlockWriter, type SourceFile } from 'ts-morph';
import { bannerFor } from '../lib.js';
import { type NamedType, type NamedTypeSuffix, namedTypeStem, namedTypeSuffixes } from './named-types.js';
import { type ProblemTypes, problemTypesReader } from './problem-types.js';
import type { OperationInfo, PagingStyle, ParameterInfo } from '../../src/runtime/contract.js';
import { parameterRow } from './parameter-rows.js';
import {
  isObject,
  operationsOf,
  resolveLocal,
  webhooksOf,
  type Json,
  type JsonObject,
  type OperationModel,
  type ParameterModel,
} from '../openapi-model.js';

interface OperationRow {
  readonly model: OperationModel;
  readonly group: string;
  readonly name: string;
  readonly idempotencyHeader: string | null;
  readonly pagination: OperationInfo['pagination'];
  readonly argsRequired: boolean;
  readonly problemTypes: ProblemTypes;
  readonly parameters: readonly ParameterInfo[];
}

/**
 * The meta member each paging style reads when x-pagination does not name it (`member`); a style without
 * an entry (page-count: no common name) must name it, `full-page` reads none.
 */
const memberOfStyle: Record<PagingStyle, string | null> = {
  'page-count': null,
  'next-page': 'nextPage',
  'last-page': 'lastPage',
  'page-total': 'total',
  'offset-total': 'total',
  'full-page': null,
};

function isPagingStyle(value: unknown): value is PagingStyle {
  return typeof value === 'string' && Object.hasOwn(memberOfStyle, value);
}

/** The members an object schema declares: through local $refs and allOf; any branch of oneOf/anyOf. */
function membersOf(document: JsonObject, schema: Json | undefined): Map<string, Json> {
  const members = new Map<string, Json>();
  const resolved = resolveLocal(document, schema);
  if (!isObject(resolved)) return members;
  if (isObject(resolved.properties)) for (const [name, member] of Object.entries(resolved.properties)) members.set(name, member);
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const parts = resolved[key];
    if (Array.isArray(parts)) for (const part of parts) for (const [name, member] of membersOf(document, part)) members.set(name, member);
  }
  return members;
}

/** The schema of the member at a dotted path of a page schema, or undefined when the schema does not declare it. */
function memberAt(document: JsonObject, schema: Json | undefined, path: readonly string[]): Json | undefined {
  let current = schema;
  for (const key of path) {
    current = membersOf(document, current).get(key);
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * The operation's x-pagination as a table row. Its `style` is required and says how the walk tells whether
 * another page follows; the success response must declare the items array and the meta member the style reads.
 */
function paginationOf(document: JsonObject, model: OperationModel): OperationInfo['pagination'] {
  const paging = model.operation['x-pagination'];
  if (paging === undefined) return null;
  const id = model.operationId;
  if (!isObject(paging)) throw new Error(`${id}: x-pagination is not an object`);
  const styles = Object.keys(memberOfStyle).join(', ');
  if (paging.style === undefined) throw new Error(`${id}: x-pagination has no style (one of ${styles})`);
  if (!isPagingStyle(paging.style))
    throw new Error(`${id}: x-pagination style ${JSON.stringify(paging.style)} is unknown (one of ${styles})`);
  const style = paging.style;
  // Page-number lists name `page`; an offset list (offset-total) names `offset` instead.
  const positionKey = style === 'offset-total' ? 'offset' : 'page';
  const otherKey = positionKey === 'offset' ? 'page' : 'offset';
  if (typeof paging[positionKey] !== 'string' || paging[otherKey] !== undefined) {
    throw new Error(`${id}: x-pagination style ${style} names its position parameter in \`${positionKey}\` (and not in \`${otherKey}\`)`);
  }
  const position = String(paging[positionKey]);
  const size = String(paging.size);
  const sizeParameter = model.parameters.find((p) => p.in === 'query' && p.name === size);
  if (!sizeParameter || !model.parameters.some((p) => p.in === 'query' && p.name === position)) {
    throw new Error(`${id}: x-pagination names query parameters that do not exist`);
  }
  if (style === 'full-page' && paging.member !== undefined) throw new Error(`${id}: x-pagination style full-page reads no member`);
  const member = typeof paging.member === 'string' ? paging.member : memberOfStyle[style];
  if (style !== 'full-page' && member === null)
    throw new Error(`${id}: x-pagination style ${style} needs \`member\`, the meta member it reads`);
  const items = typeof paging.items === 'string' ? paging.items : 'data';
  const meta = typeof paging.meta === 'string' ? paging.meta : 'meta';

  const page = model.responses.find((r) => /^2\d\d$/.test(r.status) && r.schema)?.schema;
  if (!page) throw new Error(`${id}: x-pagination on an operation without a JSON success response`);
  if (memberAt(document, page, [items]) === undefined)
    throw new Error(`${id}: x-pagination items \`${items}\` is not a member of the page`);
  if (member !== null && memberAt(document, page, [...meta.split('.'), member]) === undefined) {
    throw new Error(`${id}: x-pagination style ${style} reads \`${meta}.${member}\`, which the page schema does not declare`);
  }
  const defaultSize = sizeParameter.schema.default;
  return {
    style,
    position,
    size,
    defaultSize: typeof defaultSize === 'number' ? defaultSize : null,
    // Defaults fit interfaces A and D ({ meta, data[] }, pages from 1); the API Pix says otherwise explicitly.
    firstPage: style === 'offset-total' ? 0 : typeof paging.firstPage === 'number' ? paging.firstPage : 1,
    items,
    meta,
    member,
  };
}

function rowOf(
  document: JsonObject,
  model: OperationModel,
  problemTypesOf: (model: OperationModel) => ProblemTypes,
  source: string,
): OperationRow {
  const match = /^([a-z][A-Za-z0-9]*)\.([a-z][A-Za-z0-9]*)$/.exec(model.operationId);
  if (!match) throw new Error(`operationId ${model.operationId} is not <group>.<name> in camelCase`);
  const op = model.operation;
  const idempotencyHeader = typeof op['x-idempotency-key'] === 'string' ? op['x-idempotency-key'] : null;
  if (idempotencyHeader && !model.parameters.some((p) => p.in === 'header' && p.name === idempotencyHeader)) {
    throw new Error(`${model.operationId}: x-idempotency-key names ${idempotencyHeader}, which is not a header parameter`);
  }
  const pagination = paginationOf(document, model);
  const argsRequired =
    model.requestBody?.required === true || model.parameters.some((p) => p.required && p.in !== 'cookie' && p.name !== idempotencyHeader);
  return {
    model,
    group: match[1]!,
    name: match[2]!,
    idempotencyHeader,
    pagination,
    argsRequired,
    problemTypes: problemTypesOf(model),
    parameters: model.parameters.map((parameter) => parameterRow(source, model, parameter)),
  };
}

/** Length and pattern limits of the idempotency header, so the runtime generates keys that fit them. */
function idempotencyKeyRuleOf(row: OperationRow): Record<string, unknown> | null {
  if (!row.idempotencyHeader) return null;
  const schema = row.model.parameters.find((p) => p.in === 'header' && p.name === row.idempotencyHeader)!.schema;
  const number = (value: unknown): number | null => (typeof value === 'number' ? value : null);
  return {
    header: row.idempotencyHeader,
    minLength: number(schema.minLength),
    maxLength: number(schema.maxLength),
    pattern: typeof schema.pattern === 'string' ? schema.pattern : null,
  };
}

function tableEntry(row: OperationRow): Record<string, unknown> {
  const { model } = row;
  const op = model.operation;
  return {
    operationId: model.operationId,
    group: row.group,
    name: row.name,
    method: model.method,
    path: model.path,
    summary: model.summary,
    scopes: model.scopes,
    secured: model.secured,
    basicAuth: model.basicAuth,
    tokenHeader: model.tokenHeader,
    parameters: row.parameters,
    requestBody: model.requestBody ? { mediaType: model.requestBody.mediaType, required: model.requestBody.required } : null,
    idempotencyKeyRule: idempotencyKeyRuleOf(row),
    pagination: row.pagination,
    errorTypes: Array.isArray(op['x-error-types']) ? op['x-error-types'].map(String) : [],
    problemTypes: row.problemTypes,
    jwsPayload: typeof op['x-jws-payload'] === 'string' ? op['x-jws-payload'] : null,
    source: typeof op['x-source'] === 'string' ? op['x-source'] : null,
    idempotencyBodyField: typeof op['x-idempotency-body-field'] === 'string' ? op['x-idempotency-body-field'] : null,
    message: typeof op['x-message'] === 'string' ? op['x-message'] : null,
    accountHeader: model.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'x-account-id')?.name ?? null,
    pathCaseInsensitive: op['x-path-case-insensitive'] === true,
    provisional: op['x-provisional'] === true,
    responseStatuses: model.responses.map((r) => r.status),
  };
}

function docComment(row: OperationRow): string {
  const { model } = row;
  const lines = [
    model.summary || model.operationId,
    '',
    `\`${model.method.toUpperCase()} ${model.path}\`${model.scopes.length ? ` — scopes: ${model.scopes.join(', ')}` : ''}`,
  ];
  if (model.operation['x-provisional'] === true) {
    lines.push('', `**Provisional**: ${String(model.operation['x-provisional-reason'] ?? 'path not shown by the provider')}`);
  }
  if (row.idempotencyHeader)
    lines.push('', `Idempotent: the runtime sends \`${row.idempotencyHeader}\` (generated when not given) and reuses it on retries.`);
  return lines.join('\n').replace(/\*\//g, '*\\/');
}

/** The webhook deliveries (`webhooks:`): event type -> payload schema, and the payload type of each. */
function emitEvents(file: SourceFile, document: JsonObject): void {
  const events = webhooksOf(document);
  if (events.length === 0) return;
  const table = Object.fromEntries(
    events.map((e) => [e.type, { type: e.type, schema: e.schema, operationId: e.operationId, summary: e.summary }]),
  );
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Every webhook event type delivered by the interface, with the component schema of its payload.'],
    declarations: [{ name: 'eventTable', initializer: `${JSON.stringify(table, null, 2)} as const` }],
  });
  file.addInterface({
    isExported: true,
    name: 'EventPayloads',
    docs: ['The payload of each event type, as delivered.'],
    properties: events.map((e) => ({ name: JSON.stringify(e.type), type: `components["schemas"][${JSON.stringify(e.schema)}]` })),
  });
}

/** Operations that send one message each (`x-message`): message name -> operationId and body schema. */
function emitMessages(file: SourceFile, rows: readonly OperationRow[]): void {
  const messages = rows.filter((row) => typeof row.model.operation['x-message'] === 'string');
  if (messages.length === 0) return;
  const table = Object.fromEntries(
    messages.map((row) => {
      const ref = row.model.requestBody?.schema.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/'))
        throw new Error(`${row.model.operationId}: x-message needs a body that is a component schema`);
      return [
        String(row.model.operation['x-message']),
        {
          message: String(row.model.operation['x-message']),
          operationId: row.model.operationId,
          schema: ref.slice('#/components/schemas/'.length),
        },
      ];
    }),
  );
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Every message the interface sends, by name: the operation that sends it and the component schema of its body.'],
    declarations: [{ name: 'messageTable', initializer: `${JSON.stringify(table, null, 2)} as const` }],
  });
  file.addTypeAlias({ isExported: true, name: 'MessageName', type: 'keyof typeof messageTable' });
  file.addInterface({
    isExported: true,
    name: 'MessagePayloads',
    docs: ['The body of each message, as sent.'],
    properties: messages.map((row) => ({
      name: JSON.stringify(row.model.operation['x-message']),
      type: `components["schemas"][${JSON.stringify(String(row.model.requestBody!.schema.$ref).slice('#/components/schemas/'.length))}]`,
    })),
  });
}

function namedTypesOfRow(row: OperationRow): NamedType[] {
  const { model } = row;
  const id = model.operationId;
  const op = `operations[${JSON.stringify(id)}]`;
  const stem = namedTypeStem(id);
  const has = (location: ParameterModel['in']): boolean => model.parameters.some((p) => p.in === location);
  const types: [NamedTypeSuffix, string | null][] = [
    ['Params', `OperationArgs<${op}${row.idempotencyHeader ? `, ${JSON.stringify(row.idempotencyHeader)}` : ''}>`],
    ['Path', has('path') ? `NonNullable<${op}["parameters"]["path"]>` : null],
    ['Query', has('query') ? `NonNullable<${op}["parameters"]["query"]>` : null],
    ['Body', model.requestBody ? `NonNullable<${op}["requestBody"]>["content"][${JSON.stringify(model.requestBody.mediaType)}]` : null],
    ['Result', `OperationResult<${op}>`],
    ['Item', row.pagination ? `PageItem<${stem}Result, ${JSON.stringify(row.pagination.items)}>` : null],
  ];
  return types.flatMap(([suffix, type]) => (type === null ? [] : [{ name: `${stem}${suffix}`, suffix, operationId: id, type }]));
}

/**
 * The named types of the rows, refusing two operations that would make the same name. (No other name of
 * operations.ts ends in a suffix of the scheme, so none can be shadowed.)
 */
function checkedNamedTypes(rows: readonly OperationRow[]): NamedType[] {
  const named = rows.flatMap(namedTypesOfRow);
  const seen = new Map<string, string>();
  for (const type of named) {
    const other = seen.get(type.name);
    if (other !== undefined && other !== type.operationId)
      throw new Error(`${type.operationId} and ${other} both get the named type ${type.name}: rename one operationId`);
    seen.set(type.name, type.operationId);
  }
  return named;
}

/** The named types of every operation of a bundle, in table order (what operations.ts declares); `source` names it in errors. */
export function namedTypesOf(document: JsonObject, source = 'specs/'): NamedType[] {
  return checkedNamedTypes(operationsOf(document).map((model) => rowOf(document, model, problemTypesReader(document), source)));
}

function namedTypeDoc(type: NamedType, row: OperationRow): string {
  const call = `\`client.${row.group}.${row.name}()\` (\`${row.model.method.toUpperCase()} ${row.model.path}\`)`;
  return `${type.suffix} of ${call}: ${namedTypeSuffixes[type.suffix]}.`.replace(/\*\//g, '*\\/');
}

/**
 * generated/<interface>/named-types.ts: the named types of every operation, re-exported from operations.ts
 * where they are declared, so a package subpath exports them all with one `export type *` and nothing else
 * of the generated module.
 */
export function emitNamedTypes(document: JsonObject, source = 'specs/'): string {
  const names = namedTypesOf(document, source).map((type) => type.name);
  return [
    `/* ${bannerFor('operations', source)} */`,
    '',
    '/**',
    ' * The named request, parameter and result types of every operation: `<Group><Name><Suffix>`, the operationId',
    ' * in PascalCase (`feeRules.create` -> `FeeRulesCreate`) and one of',
    ...Object.entries(namedTypeSuffixes).map(([suffix, what]) => ` * - \`${suffix}\`: ${what};`),
    ' * declared in operations.ts, where the facade uses them.',
    ' */',
    names.length === 0 ? 'export {};' : `export type {\n${names.map((name) => `  ${name},`).join('\n')}\n} from "./operations.js";`,
    '',
  ].join('\n');
}

/** Where generated/<interface>/operations.ts finds the runtime's contract types (imported type-only). */
export const defaultContractModule = '../../src/runtime/contract.js';

/** `source`: the spec the document was bundled from, named in the banner (regenerate always names it). */
export function emitOperations(
  document: JsonObject,
  identifier: string,
  source = 'specs/',
  contractModule: string = defaultContractModule,
): string {
  const problemTypesOf = problemTypesReader(document);
  const rows = operationsOf(document).map((model) => rowOf(document, model, problemTypesOf, source));
  const Name = identifier[0]!.toUpperCase() + identifier.slice(1);
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: { indentationText: IndentationText.TwoSpaces, quoteKind: QuoteKind.Double },
  });
  const file = project.createSourceFile('operations.ts');
  file.addStatements(`/* ${bannerFor('operations', source)} */`);
  const needsComponents =
    webhooksOf(document).length > 0 || operationsOf(document).some((o) => typeof o.operation['x-message'] === 'string');
  file.addImportDeclaration({
    isTypeOnly: true,
    moduleSpecifier: './types.js',
    namedImports: needsComponents ? ['components', 'operations'] : ['operations'],
  });
  file.addImportDeclaration({
    isTypeOnly: true,
    moduleSpecifier: contractModule,
    namedImports: ['CallOptions', 'CallPromise', 'FacadeRuntime', 'OperationArgs', 'OperationInfo', 'OperationResult', 'PageItem'],
  });

  const table = Object.fromEntries(rows.map((row) => [row.model.operationId, tableEntry(row)]));
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Every operation of the interface by operationId: method, path, scopes, headers, pagination, provisional flag.'],
    declarations: [
      {
        name: 'operationTable',
        initializer: `${JSON.stringify(table, null, 2)} as const satisfies Record<string, OperationInfo>`,
      },
    ],
  });
  file.addTypeAlias({ isExported: true, name: `${Name}OperationId`, type: 'keyof typeof operationTable' });

  const groups = new Map<string, OperationRow[]>();
  for (const row of rows) groups.set(row.group, [...(groups.get(row.group) ?? []), row]);

  // The named types of every operation, declared before the facade whose signatures name them.
  const rowsById = new Map(rows.map((row) => [row.model.operationId, row]));
  // One insertion for all of them: ts-morph re-parses the file after each manipulation.
  file.addTypeAliases(
    checkedNamedTypes(rows).map((type) => ({
      isExported: true,
      name: type.name,
      type: type.type,
      docs: [namedTypeDoc(type, rowsById.get(type.operationId)!)],
    })),
  );

  const stem = (row: OperationRow): string => namedTypeStem(row.model.operationId);
  const resultType = (row: OperationRow): string => `${stem(row)}Result`;
  const itemType = (row: OperationRow): string => `${stem(row)}Item`;
  const argsParam = (row: OperationRow): string => `args: ${stem(row)}Params${row.argsRequired ? '' : ' = {}'}`;

  file.addFunction({
    isExported: true,
    name: `create${Name}Facade`,
    docs: ['The typed methods of the interface, one per operationId, over a runtime that sends the requests.'],
    parameters: [{ name: 'runtime', type: 'FacadeRuntime' }],
    statements: (writer: CodeBlockWriter) => {
      writer
        .write('return')
        .space()
        .block(() => {
          for (const [group, members] of groups) {
            writer
              .write(`${group}:`)
              .space()
              .inlineBlock(() => {
                for (const row of members) {
                  const id = JSON.stringify(row.model.operationId);
                  writer.writeLine(
                    `/**\n${docComment(row)
                      .split('\n')
                      .map((line) => ` * ${line}`.trimEnd())
                      .join('\n')}\n */`,
                  );
                  writer.writeLine(
                    `${row.name}: (${argsParam(row)}, options?: CallOptions): CallPromise<${resultType(row)}> => runtime.invoke(${id}, args, options) as CallPromise<${resultType(row)}>,`,
                  );
                  if (row.pagination) {
                    writer.writeLine(
                      `/** Every page of \`${row.model.operationId}\`, following \`${row.pagination.position}\` until the last page. */`,
                    );
                    writer.writeLine(
                      `${row.name}Pages: (${argsParam(row)}, options?: CallOptions): AsyncIterable<${resultType(row)}> => runtime.pages(${id}, args, options) as AsyncIterable<${resultType(row)}>,`,
                    );
                    writer.writeLine(`/** Every item of every page of \`${row.model.operationId}\`. */`);
                    writer.writeLine(
                      `${row.name}Items: (${argsParam(row)}, options?: CallOptions): AsyncIterable<${itemType(row)}> => itemsOf(runtime.pages(${id}, args, options) as AsyncIterable<${resultType(row)}>, ${JSON.stringify(row.pagination.items)}),`,
                    );
                  }
                }
              });
            writer.write(',').newLine();
          }
        });
      writer.write(';');
    },
  });
  file.addFunction({
    name: 'itemsOf',
    isAsync: true,
    isGenerator: true,
    typeParameters: ['Page', 'Items extends string'],
    parameters: [
      { name: 'pages', type: 'AsyncIterable<Page>' },
      { name: 'items', type: 'Items' },
    ],
    returnType: 'AsyncGenerator<PageItem<Page, Items>>',
    statements: [
      'for await (const page of pages) {',
      '  const list = (page as Record<string, ReadonlyArray<PageItem<Page, Items>> | undefined> | undefined)?.[items] ?? [];',
      '  yield* list;',
      '}',
    ],
  });
  file.addTypeAlias({ isExported: true, name: `${Name}Facade`, type: `ReturnType<typeof create${Name}Facade>` });
  emitEvents(file, document);
  emitMessages(file, rows);
  file.formatText({ indentSize: 2, convertTabsToSpaces: true });

  return file.getFullText();
}
