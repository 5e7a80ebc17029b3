/**
 * How the runtime walks a paginated list: each operation declares its paging style (x-pagination
 * `style`, carried by the operation table with the meta member the style reads), and the strategy of that
 * style, one small function each, says where the next page starts or that there is none. Nothing is
 * guessed from what a page happens to hold.
 */
import type { OperationInfo, PagingStyle } from './contract.js';

export type Pagination = NonNullable<OperationInfo['pagination']>;

/** What a strategy sees of the page just received. */
interface PageSeen {
  /** Value of the meta member the style reads (undefined when the page does not carry it). */
  readonly value: unknown;
  /** The position the page was asked for: a page number, or the offset of its first item. */
  readonly position: number;
  /** The page counted from 1, whatever number the interface gives its first page. */
  readonly index: number;
  /** Page size asked for (0 when neither the call nor the spec gives one). */
  readonly size: number;
  /** Number of items the page holds (more than 0: an empty page always ends the walk). */
  readonly received: number;
}

/** A paging style: whether another page follows the one seen, and how far the position moves to it. */
interface Strategy {
  readonly more: (page: PageSeen) => boolean;
  /** `page`: the position is a page number, the next is one more; `items`: it is an offset, moved by the items received. */
  readonly step: 'page' | 'items';
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The rule of `full-page`, and of any style on a page that lacks the member the style reads. */
const pageWasFull = ({ size, received }: PageSeen): boolean => size > 0 && received >= size;

export const strategies: Record<PagingStyle, Strategy> = {
  'page-count': { more: ({ value, index }) => isNumber(value) && index < value, step: 'page' },
  // nextPage is null on the last page.
  'next-page': { more: ({ value, index }) => isNumber(value) && value > index, step: 'page' },
  'last-page': { more: ({ value, index }) => isNumber(value) && index < value, step: 'page' },
  'page-total': { more: ({ value, index, size }) => isNumber(value) && size > 0 && index * size < value, step: 'page' },
  'offset-total': { more: ({ value, position, received }) => isNumber(value) && position + received < value, step: 'items' },
  'full-page': { more: pageWasFull, step: 'page' },
};

/** The value at a dotted path (`meta`, `parametros.paginacao`) of a page, undefined where a step is missing. */
export function valueAt(page: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined),
      page,
    );
}

/**
 * The position of the page after `page` (asked for at `position` with `size` items), or null when it was
 * the last: an empty page ends the walk; a page that lacks the member its style reads goes on while full.
 */
export function nextPosition(pagination: Pagination, page: unknown, position: number, size: number): number | null {
  const items = valueAt(page, pagination.items);
  const received = Array.isArray(items) ? items.length : 0;
  if (received === 0) return null;
  const meta = valueAt(page, pagination.meta);
  const value =
    pagination.member === null || typeof meta !== 'object' || meta === null
      ? undefined
      : (meta as Record<string, unknown>)[pagination.member];
  const seen: PageSeen = { value, position, index: position - pagination.firstPage + 1, size, received };
  const strategy = strategies[pagination.style];
  const more = value === undefined ? pageWasFull(seen) : strategy.more(seen);
  if (!more) return null;
  return strategy.step === 'items' ? position + received : position + 1;
}
