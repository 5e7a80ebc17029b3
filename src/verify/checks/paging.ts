/**
 * The paging members of a list, walked the way the clients walk it (src/runtime/paging.ts, the operation's
 * declared style) with a small page size: every page holds at most the size asked, no item comes twice, and
 * when the walk ends the items counted agree with the total the meta declares (where it declares one).
 */
import { isDeepStrictEqual } from 'node:util';
import { nextPosition, valueAt } from '../../runtime/paging.js';
import type { Exchange } from '../model.js';
import { judged, type RunContext } from './context.js';

/** Pages walked at most: enough to cross a page boundary and reach the end of a small list. */
export const maxPages = 6;
const pageSize = 2;
const totalMembers = ['total', 'quantidadeTotalDeItens', 'totalItems', 'totalElements', 'count'];

export async function pagingChecks(context: RunContext, operationId: string): Promise<void> {
  const { info, baseUrl } = context.operations.get(operationId)!;
  const paging = info.pagination;
  const args = context.sentArgs.get(operationId);
  if (!paging || !args || !context.made.has(operationId)) return;
  const exchanges: Exchange[] = [];
  const seen: unknown[] = [];
  let position: number | null = paging.firstPage;
  let total: number | undefined;
  let failure: string | null = null;
  let pages = 0;
  while (position !== null && pages < maxPages && failure === null) {
    const query = { ...args.query, [paging.position]: position, [paging.size]: pageSize };
    const exchange = await context.session.send(info, { ...args, query }, { kind: 'token' }, { baseUrl });
    exchanges.push(exchange);
    pages += 1;
    failure = context.judge.verdict(info, exchange, 'success');
    if (failure !== null || exchange.received.kind !== 'answer') break;
    const page = exchange.received.body;
    const items = valueAt(page, paging.items);
    if (!Array.isArray(items)) {
      failure = `page ${pages} has no item list at ${paging.items}`;
      break;
    }
    if (items.length === 0 && pages > 1) failure = `page ${pages} was announced by the page before it and holds no items`;
    if (items.length > pageSize) failure = `page ${pages} holds ${items.length} items, more than the ${pageSize} asked for`;
    for (const item of items) {
      if (seen.some((earlier) => isDeepStrictEqual(earlier, item))) failure ??= `an item of page ${pages} came on an earlier page too`;
      seen.push(item);
    }
    const meta = valueAt(page, paging.meta);
    const declared = totalMembers.map((name) => valueAt(meta, name)).find((value) => typeof value === 'number');
    if (typeof declared === 'number') total = declared;
    const count = paging.style === 'page-count' && paging.member ? valueAt(meta, paging.member) : undefined;
    if (typeof count === 'number' && typeof declared === 'number' && count !== Math.max(1, Math.ceil(declared / pageSize)))
      failure ??= `the meta counts ${count} pages of ${pageSize} for ${declared} items`;
    position = nextPosition(paging, page, position, pageSize);
  }
  if (failure === null && position === null && total !== undefined && seen.length !== total)
    failure = `the walk ended after ${seen.length} items, but the meta declares a total of ${total}`;
  if (failure === null && position !== null && total !== undefined && seen.length >= total)
    failure = `the meta declares ${total} items, and after ${seen.length} another page was announced`;
  context.record(
    judged(
      operationId,
      'paging',
      'pages agree with their items',
      failure,
      failure === null ? [] : exchanges.slice(-2),
      `${pages} pages walked, ${seen.length} items`,
    ),
  );
}
