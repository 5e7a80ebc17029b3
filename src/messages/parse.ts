/**
 * Typed reading of a message by its name (`pacs.008`, `pain.013`, `dict.create-key`, ...): the generated
 * message table says which schema a name has, the generated validator checks the value, and the result
 * has the generated type of that message. A polled message arrives as an open object (section 6.5 does not
 * show its format); `parseMessage` is how a handler turns one into the type it expects, or learns — by
 * pointer and rule — why it is not one.
 *
 * Read as answers are (section 9.3): a member the schema does not list is kept and passes; everything
 * else the schema says is checked (required members, types, patterns, enumerations, formats). Pass
 * `{ unknownMembers: 'refuse' }` to check a message as strictly as one about to be sent.
 */
import { type MessageName, type MessagePayloads, messageTable } from '../../generated/messages/operations.js';
import { patternDescriptions, validators } from '../../generated/messages/validators.js';
import { ConfigurationError, ValidationError, type ValidationIssue } from '../runtime/errors.js';
import { type CompiledValidator, check } from '../runtime/validation.js';

/** Every message name the generated table knows. */
export const messageNames = Object.keys(messageTable) as MessageName[];

export function isMessageName(name: string): name is MessageName {
  return Object.hasOwn(messageTable, name);
}

/** A value that is not the message it was read as: `issues` names each pointer and rule. */
export class MessageValidationError extends ValidationError {
  override readonly name = 'MessageValidationError';
  readonly messageName: MessageName;
  constructor(messageName: MessageName, issues: readonly ValidationIssue[]) {
    super(`${messageName}: not a valid ${messageName} message`, issues);
    this.messageName = messageName;
  }
}

export interface ParseMessageOptions {
  /** `allow` (default): members the schema does not list pass, as in any answer; `refuse`: they are issues too. */
  readonly unknownMembers?: 'allow' | 'refuse';
}

/** Rules an unknown member breaks: the only ones a tolerant reading lets pass. */
const unknownMemberRules = new Set(['additionalProperties', 'unevaluatedProperties']);

/** The issues of `value` as the message `name` (an empty list when it is one). */
export function checkMessage(name: MessageName, value: unknown, options: ParseMessageOptions = {}): ValidationIssue[] {
  const entry = messageTable[name];
  const validator = (validators.schemas as Readonly<Record<string, CompiledValidator>>)[entry.schema];
  if (!validator) throw new ConfigurationError(`no validator for ${name} (schema ${entry.schema}): the generated files are out of date`);
  const issues = check(validator, value, '', patternDescriptions);
  return options.unknownMembers === 'refuse' ? issues : issues.filter((issue) => !unknownMemberRules.has(issue.rule));
}

/**
 * `value` as the message `name`, typed as the generated type of that message; a MessageValidationError
 * (a ValidationError) naming each pointer and rule when it is not one; a ConfigurationError for a name
 * the table does not know.
 *
 *     for (const message of batch.messages) {
 *       const status = parseMessage('pacs.002', message);   // typed as MessagePayloads['pacs.002']
 *       if (status.situacaoDaTransacao === 'RJCT') …
 *     }
 */
export function parseMessage<M extends MessageName>(name: M, value: unknown, options: ParseMessageOptions = {}): MessagePayloads[M] {
  if (!isMessageName(name)) {
    throw new ConfigurationError(`unknown message ${String(name)}; known: ${messageNames.join(', ')}`);
  }
  const issues = checkMessage(name, value, options);
  if (issues.length > 0) throw new MessageValidationError(name, issues);
  return value as MessagePayloads[M];
}
