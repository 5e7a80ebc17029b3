/**
 * The commands that check documents: `validate` (requests, responses, schemas, events, messages) and
 * `diff` (two bundled specs). Loaded only when one of them runs: they pull in the generated validators.
 */
import { readFileSync } from 'node:fs';
import { findDefinition, findInterface, interfaces, type InterfaceName } from '../interfaces.js';
import type { OperationInfo } from '../runtime/contract.js';
import type { CompiledValidator, check } from '../runtime/validation.js';
import { UsageError } from './arguments.js';
import { assertPackagesInstalled } from './optional-packages.js';
import { checkHttpAnswer, checkMatchedRequest, pathIssues } from '../checks/http-check.js';
import { bundledSpecPath, loadInterface } from '../checks/registry.js';
import { nearestOperations } from '../checks/nearest-operations.js';
import { findOperation } from '../checks/router.js';
import { headersOf, takesBody, validateDocument, type ValidateTarget } from '../checks/validate.js';

export function interfaceArgument(name: string | undefined): InterfaceName {
  const info = name ? findInterface(name) : undefined;
  if (!info) throw new UsageError(`unknown interface ${JSON.stringify(name ?? '')}; known: ${interfaces.map((i) => i.name).join(', ')}`);
  return info.name as InterfaceName;
}

function readDocument(file: string | undefined): unknown {
  const text = !file || file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${file ?? 'stdin'} is not JSON: ${(error as Error).message}`);
  }
}

/** A delivered webhook payload checked as an event of the given type (section 6). */
async function validateEventCommand(args: string[]): Promise<number> {
  const { checkEvent, eventTypes, isEventType } = await import('../events/parse.js');
  const [type, file] = args;
  if (!type || !isEventType(type))
    throw new UsageError(`unknown event type ${JSON.stringify(type ?? '')}; known: ${eventTypes.join(', ')}`);
  return report(checkEvent(type, readDocument(file)));
}

/** A message of interface C checked against its schema, by the names of section 2.12 (`pacs.008`, `dict.create-key`). */
async function validateMessageCommand(args: string[]): Promise<number> {
  const [{ messageTable }, { validators, patternDescriptions }, { check }] = await Promise.all([
    import('../../generated/messages/operations.js'),
    import('../../generated/messages/validators.js'),
    import('../runtime/validation.js'),
  ]);
  const [message, file] = args;
  const entry = message ? (messageTable as Record<string, { schema: string } | undefined>)[message] : undefined;
  if (!entry) throw new UsageError(`unknown message ${JSON.stringify(message ?? '')}; known: ${Object.keys(messageTable).join(', ')}`);
  const validator = (validators.schemas as Record<string, Parameters<typeof check>[0]>)[entry.schema]!;
  return report(check(validator, readDocument(file), '', patternDescriptions));
}

/** A bundled spec from a file: JSON, or YAML when the optional `yaml` package is installed. */
async function readSpec(file: string): Promise<Record<string, unknown>> {
  const text = readFileSync(file, 'utf8');
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    assertPackagesInstalled(['yaml'], `reading ${file}, which is not JSON,`);
    try {
      const { parse } = await import('yaml');
      return parse(text) as Record<string, unknown>;
    } catch (error) {
      throw new UsageError(`${file} is neither JSON nor YAML: ${(error as Error).message}`);
    }
  }
}

/**
 * Two bundled specs compared; with a corrections file, the breaking changes it lists are accepted and a
 * listed one that no longer occurs fails (exit 1). A corrections file that cannot be read is a usage error.
 */
export async function diffCommand(args: string[], correctionsFile?: string): Promise<number> {
  const [oldFile, newFile, extra] = args;
  if (!oldFile || !newFile) throw new UsageError('diff needs two bundled specs: contrato diff <old> <new>');
  if (extra !== undefined) throw new UsageError(`diff takes two bundled specs, not ${JSON.stringify(extra)}`);
  const [{ diffFails, diffSpecs, formatDiff }, { applyCorrections, CorrectionsError, readCorrections }] = await Promise.all([
    import('../governance/diff.js'),
    import('../governance/corrections.js'),
  ]);
  let corrections: Awaited<ReturnType<typeof readCorrections>> = [];
  if (correctionsFile !== undefined) {
    try {
      corrections = await readCorrections(correctionsFile);
    } catch (error) {
      throw error instanceof CorrectionsError ? new UsageError(error.message) : error;
    }
  }
  const result = applyCorrections(diffSpecs(await readSpec(oldFile), await readSpec(newFile)), corrections);
  console.log(formatDiff(result));
  return diffFails(result) ? 1 : 0;
}

export interface ValidateOptions {
  /** `--header name:value` values of a request. */
  readonly headers?: readonly string[];
  /** `--strict`: a response checked as its provider must send it. */
  readonly strict?: boolean;
  /** `--base-url`: the address the answer came from, so a problem type's `{base_url}` is compared with it. */
  readonly baseUrl?: string;
}

export async function validateCommand(args: string[], options: ValidateOptions = {}): Promise<number> {
  const { headers = [], strict = false } = options;
  if (args[0] === 'events') return validateEventCommand(args.slice(1));
  if (args[0] === 'pix-notification')
    return report((await import('./notification-command.js')).pixNotificationIssues(args.slice(1), readDocument));
  // `messages` is also an interface: `validate messages POST /path request` and `… schema X` keep that form.
  if (args[0] === 'messages' && args[1] !== 'schema' && !/^(get|put|post|patch|delete|head|options)$/i.test(args[1] ?? ''))
    return validateMessageCommand(args.slice(1));
  const name = interfaceArgument(args[0]);
  const modules = await loadInterface(name);
  if (args[1] === 'schema') {
    if (!args[2]) throw new UsageError('schema needs a name');
    // Check the name before reading stdin, so a usage error never waits for input.
    validateDocument(modules, { kind: 'schema', name: args[2] }, undefined);
    const issues = validateDocument(modules, { kind: 'schema', name: args[2] }, readDocument(args[3]));
    return report(issues);
  }
  const [, method, path, what, file] = args;
  if (!method || !path || !what) throw new UsageError('validate needs <METHOD> <path> request|response:<STATUS>');
  const operation = findOperation(modules, method, path);
  if (!operation) {
    const nearest = nearestOperations(modules, method, path).map(
      (info) => `${info.method.toUpperCase()} ${info.path} (${info.operationId})`,
    );
    throw new UsageError(`no operation ${method.toUpperCase()} ${path.split('?')[0]} in ${name}; nearest: ${nearest.join(', ')}`);
  }
  const { info } = operation;
  if (what === 'request') {
    if (strict) throw new UsageError('--strict checks a response; a request is always checked strictly');
    if (options.baseUrl !== undefined) throw new UsageError('--base-url goes with a response, whose problem type it checks');
    const request = { method, target: path, headers: headersOf(headers) };
    if (!takesBody(modules, operation)) {
      if (file !== undefined)
        throw new UsageError(`${info.operationId} (${info.method.toUpperCase()} ${info.path}) takes no request body; leave out ${file}`);
      return report(checkMatchedRequest(modules, operation, { ...request, body: undefined }, new Date()).issues);
    }
    return report(checkMatchedRequest(modules, operation, { ...request, body: readDocument(file) }, new Date()).issues);
  }
  if (headers.length > 0) throw new UsageError('--header goes with a request; a response is checked by its body');
  if (path.includes('?')) throw new UsageError("a query string goes with a request; give the response's path without it");
  if (!/^response:(\d{3}|default)$/.test(what)) throw new UsageError(`expected request or response:<STATUS>, got ${what}`);
  const status = what.slice('response:'.length);
  const target: ValidateTarget = { kind: 'response', status };
  // Check the operation before reading stdin, so a usage error never waits for input.
  validateDocument(modules, target, undefined, operation);
  const document = readDocument(file);
  const strictValidator = strict ? await strictValidatorOf(readBundles(documentNames(name).map(bundledSpecPath)), info, status) : undefined;
  return report([
    ...pathIssues(modules, operation),
    ...checkHttpAnswer(modules, info, { status, body: document }, { baseUrl: options.baseUrl, strictValidator }),
  ]);
}

/** The documents a CLI name covers: an interface's, or the one document named. */
function documentNames(name: string): string[] {
  return findDefinition(name)?.documents.map((document) => document.name) ?? [name];
}

/** The strict validator of a response, compiled from the bundle that holds its operation. */
async function strictValidatorOf(
  bundles: readonly Record<string, unknown>[],
  info: OperationInfo,
  status: string,
): Promise<CompiledValidator> {
  // Loaded only here: it compiles with ajv, which no other command needs.
  const { responseSchema, strictValidator } = await import('../checks/strict-response.js');
  for (const bundle of bundles) {
    const schema = responseSchema(bundle, info.method, info.path, status);
    if (schema !== null) return strictValidator(bundle, schema);
  }
  throw new UsageError(`response ${status} of ${info.operationId} has no JSON body`);
}

function readBundles(files: readonly string[]): Record<string, unknown>[] {
  return files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
}

/**
 * At most this many issues are printed by `validate`: a list of thousands of bad items would bury the
 * first lines, which usually share one cause.
 */
const maxReportedIssues = 50;

/** `valid` on stdout (exit 0), or one `pointer: message` line per issue on stderr, at most maxReportedIssues, then a count of the rest (exit 1). */
function report(issues: readonly { pointer: string; message: string }[]): number {
  if (issues.length === 0) {
    console.log('valid');
    return 0;
  }
  for (const issue of issues.slice(0, maxReportedIssues)) console.error(`${issue.pointer || '/'}: ${issue.message}`);
  const omitted = issues.length - maxReportedIssues;
  if (omitted > 0) console.error(`… and ${omitted} more problem${omitted === 1 ? '' : 's'} (fix these first)`);
  return 1;
}
