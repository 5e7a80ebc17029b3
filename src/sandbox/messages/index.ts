/**
 * The sandbox of interface C, the Pix message exchange: the login that issues the `svc-token`, sending
 * every message (a pacs.008 answered by a pacs.002 on the receive queue), the long poll with
 * `svc-pull-next` cursors, and the key directory (DICT). Control verbs: `receive` (another participant
 * sends the participant a message), `reject` (the other side rejects the next payment, or one by its
 * end-to-end id, with a code), `state` (everything held, for a test).
 */
import { defineSandboxModule, type Handler, type MountableModule, SandboxProblem } from '../contract.js';
import { directoryHandlers } from './directory.js';
import { exchangeHandlers, reject } from './exchange.js';
import { messagesProblems } from './problems.js';
import { messagesWorld } from './world.js';
import { pollHandler, receive } from './queue.js';
import { createMessagesState } from './seed.js';
import type { Json, MessagesState } from './state.js';
import { declareVerb } from '../verb-contract.js';
import { answered } from './exchange.js';
import { messageTable } from '../../../generated/messages/operations.js';

export type { MessagesState } from './state.js';

/** Seconds a svc-token lives: not shown (section 5.7); the client assumes an hour and renews earlier on any 401. */
export const messagesTokenSeconds = 3600;

/** POST /login (provisional): the credential's id and secret; the token in the `svc-token` header and in the body. */
const login: Handler<MessagesState> = (request, _state, env) => {
  const { clientId, clientSecret } = request.body as Json;
  if (!env.tokens.checkCredential(String(clientId), String(clientSecret)))
    throw new SandboxProblem(
      401,
      'unauthorized',
      'the client id or secret is not one the sandbox knows (GET /_sandbox names its credentials)',
    );
  const token = env.tokens.issue({ clientId: String(clientId), scopes: env.tokens.scopesOf(String(clientId)) ?? [] }, messagesTokenSeconds);
  return { status: 200, body: { token }, headers: { 'svc-token': token } };
};

/** The component of a message's schema (`Pacs.008` for pacs.008), undefined for a name that is no message. */
function schemaOf(message: unknown): string | undefined {
  return typeof message === 'string' ? (messageTable as Record<string, { schema: string } | undefined>)[message]?.schema : undefined;
}

export interface MessagesSandboxOptions {
  /** Real milliseconds an empty long poll is held open (default 1000; at most 30000). */
  readonly pollWaitMs?: number;
  /** Most messages one poll answers (default 10). */
  readonly batchSize?: number;
}

export function createMessagesSandbox(options: MessagesSandboxOptions = {}): MountableModule {
  const waitMs = options.pollWaitMs ?? 1000;
  const batchSize = options.batchSize ?? 10;
  if (!Number.isInteger(waitMs) || waitMs < 0 || waitMs > 30_000) throw new RangeError('pollWaitMs must be an integer from 0 to 30000');
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be an integer of at least 1');
  return defineSandboxModule<MessagesState>({
    document: 'messages',
    prefix: '/messages',
    createState: createMessagesState,
    problems: messagesProblems,
    world: messagesWorld,
    handlers: {
      'auth.login': login,
      'messages.poll': pollHandler({ waitMs, batchSize }),
      ...exchangeHandlers,
      ...directoryHandlers,
    },
    controls: {
      receive: declareVerb(
        {
          document: 'messages',
          selects: { message: 'the kind of message the other participant sends (pacs.008, pain.013, …)' },
          lands: { body: (body) => schemaOf(body.message) },
        },
        receive,
      ),
      reject: declareVerb(
        {
          document: 'messages',
          selects: {
            message: 'the kind of message rejected (default pacs.008)',
            endToEndId: 'the id of the one message rejected',
            next: 'how many of the next messages are rejected (default 1)',
          },
          lands: {
            code: (body) => {
              const rule = answered[typeof body.message === 'string' ? body.message : 'pacs.008'];
              return rule ? `${schemaOf(rule.reply)}/${rule.codeMember}` : undefined;
            },
          },
        },
        reject,
      ),
      state: declareVerb({ document: 'messages' }, (_body, state) => state),
    },
  });
}

export const messagesSandbox = createMessagesSandbox();
