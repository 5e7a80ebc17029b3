/**
 * The token rules, on one secured operation whose valid request succeeded (a read when there is one): no token,
 * a malformed one that looks expired, a token of the same credential without the operation's scope (where the
 * interface's token request takes a scope), and a token of another interface (where the target's control plane
 * lists a credential of one). Each must be refused with a declared 401 or 403 in the contract's format.
 */
import { findDefinition } from '../../interfaces.js';
import { sandboxClientOf, sandboxPrefixOf, sandboxSecret } from '../../runtime/definition.js';
import type { ControlPlane } from '../control.js';
import type { Presented } from '../session.js';
import { clientOptionsOf } from '../session.js';
import { judged, result, type RunContext } from './context.js';

// Three base64url parts with an `exp` of 1970: the shape of a token, signed by no one, long expired.
export const expiredLooking = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjb250cmF0by12ZXJpZnkiLCJleHAiOjF9.c2lnbmVkLWJ5LW5vLW9uZQ';

function probeOf(context: RunContext): string | null {
  const secured = [...context.made.keys()].filter((id) => {
    const info = context.operations.get(id)!.info;
    return info.secured && context.operations.get(id)!.baseUrl !== '';
  });
  return secured.find((id) => context.operations.get(id)!.info.method === 'get') ?? secured[0] ?? null;
}

/** A token of another interface's sandbox credential, asked of that interface at the same origin. */
async function otherInterfaceToken(context: RunContext, control: ControlPlane): Promise<{ name: string; token: string } | null> {
  const origin = new URL(context.session.options.baseUrl).origin;
  const listed = (control.status.credentials as { clientId?: string; clientSecret?: string }[] | undefined) ?? [];
  for (const name of Object.keys(control.status.interfaces)) {
    const definition = findDefinition(name);
    if (!definition || definition.name === context.interfaceName) continue;
    const { clientId } = sandboxClientOf(definition);
    if (!listed.some((each) => each.clientId === clientId && each.clientSecret === sandboxSecret)) continue;
    const baseUrl = `${origin}${sandboxPrefixOf(definition.documents[0])}`;
    const { loadInterface } = await import('../../checks/registry.js');
    const modules = await loadInterface(definition.name);
    const request = definition.client.tokenRequest(
      baseUrl,
      clientOptionsOf(definition, baseUrl, { clientId, clientSecret: sandboxSecret }) as never,
      modules.operationTable,
    );
    try {
      return { name, token: await context.session.tokenOf(request) };
    } catch {}
  }
  return null;
}

/** A token of the caller's credential narrowed to a scope the operation does not need; null when the interface takes none. */
async function narrowedToken(context: RunContext, operationId: string): Promise<{ scope: string; token: string } | null> {
  const definition = findDefinition(context.interfaceName)!;
  const info = context.operations.get(operationId)!.info;
  if (!definition.client.optionNames.includes('scope') || info.scopes.length === 0) return null;
  const scopes = new Set([...context.operations.values()].flatMap((each) => each.info.scopes));
  const other = [...scopes].find((scope) => !info.scopes.includes(scope));
  if (!other) return null;
  const { baseUrl } = context.session.options;
  const options = { ...clientOptionsOf(definition, baseUrl, context.credential), scope: other };
  const request = definition.client.tokenRequest(baseUrl, options as never, context.session.options.operations);
  try {
    return { scope: other, token: await context.session.tokenOf(request) };
  } catch {
    return null;
  }
}

export async function tokenChecks(context: RunContext, control: ControlPlane | null): Promise<void> {
  const operationId = probeOf(context);
  if (!operationId) {
    context.record(
      result(context.interfaceName, 'token', 'tokens refused', 'skipped', 'no secured operation succeeded in this run to probe'),
    );
    return;
  }
  const { info, baseUrl } = context.operations.get(operationId)!;
  const args = context.sentArgs.get(operationId)!;
  const probe = async (rule: string, presented: Presented): Promise<void> => {
    const exchange = await context.session.send(info, args, presented, { baseUrl });
    let failure = context.judge.verdict(info, exchange, 'refusal');
    if (failure === null && exchange.received.kind === 'answer' && ![401, 403].includes(exchange.received.status))
      failure = `answered ${exchange.received.status}; a refused token answers 401 or 403`;
    context.record(judged(operationId, 'token', rule, failure, [exchange], 'refused as declared'));
  };
  await probe('no token', { kind: 'none' });
  await probe('malformed token', { kind: 'given', token: expiredLooking });
  const narrowed = await narrowedToken(context, operationId);
  if (narrowed) await probe(`token without its scope (${narrowed.scope} only)`, { kind: 'given', token: narrowed.token });
  else
    context.record(
      result(operationId, 'token', 'token without its scope', 'skipped', 'the token request takes no scope, or the operation needs none'),
    );
  const other = control ? await otherInterfaceToken(context, control) : null;
  if (other) await probe(`token of ${other.name}`, { kind: 'given', token: other.token });
  else
    context.record(
      result(
        operationId,
        'token',
        'token of another interface',
        'skipped',
        control
          ? 'no other interface issued a token'
          : 'needs a credential of another interface: the target has no control plane listing one',
      ),
    );
}
