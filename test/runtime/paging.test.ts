/**
 * Paging styles (src/runtime/paging.ts): for each named strategy, a page with more after it and the last
 * page, an empty page, a page lacking the member its style reads, and the dotted meta path. Then the
 * generator (scripts/steps/operations.ts): the row it emits from x-pagination, and what it refuses.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../scripts/openapi-model.js';
import { emitOperations } from '../../scripts/steps/operations.js';
import type { PagingStyle } from '../../src/runtime/contract.js';
import { nextPosition, strategies, type Pagination } from '../../src/runtime/paging.js';

const memberOf: Record<PagingStyle, string | null> = {
  'page-count': 'pageCount',
  'next-page': 'nextPage',
  'last-page': 'lastPage',
  'page-total': 'total',
  'offset-total': 'total',
  'full-page': null,
};

function paginationOf(style: PagingStyle, fields: Partial<Pagination> = {}): Pagination {
  return {
    style,
    position: style === 'offset-total' ? 'offset' : 'page',
    size: 'perPage',
    defaultSize: 10,
    firstPage: style === 'offset-total' ? 0 : 1,
    items: 'data',
    meta: 'meta',
    member: memberOf[style],
    ...fields,
  };
}

/** A `{ meta, data[] }` page of `received` items. */
const pageOf = (meta: Record<string, unknown>, received: number) => ({ meta, data: Array.from({ length: received }, (_, i) => i) });

interface Case {
  readonly given: string;
  readonly style: PagingStyle;
  readonly pagination?: Partial<Pagination>;
  readonly page: unknown;
  readonly position: number;
  readonly size: number;
  /** Position of the next page, or null: the page given was the last. */
  readonly want: number | null;
}

const cases: Case[] = [
  // page-count: more while the page counted from 1 is before the count.
  { given: 'a page before the count', style: 'page-count', page: pageOf({ pageCount: 3 }, 10), position: 2, size: 10, want: 3 },
  { given: 'the page the count ends at', style: 'page-count', page: pageOf({ pageCount: 3 }, 4), position: 3, size: 10, want: null },
  {
    given: 'pages counted from 0, before the count',
    style: 'page-count',
    pagination: { firstPage: 0 },
    page: pageOf({ pageCount: 2 }, 10),
    position: 0,
    size: 10,
    want: 1,
  },
  {
    given: 'pages counted from 0, at the count',
    style: 'page-count',
    pagination: { firstPage: 0 },
    page: pageOf({ pageCount: 2 }, 10),
    position: 1,
    size: 10,
    want: null,
  },
  // next-page: more while nextPage is a number after this page.
  { given: 'a next page named', style: 'next-page', page: pageOf({ nextPage: 3, lastPage: 5 }, 20), position: 2, size: 20, want: 3 },
  {
    given: 'nextPage null on the last page',
    style: 'next-page',
    page: pageOf({ nextPage: null, lastPage: 5 }, 7),
    position: 5,
    size: 20,
    want: null,
  },
  { given: 'a nextPage that does not move on', style: 'next-page', page: pageOf({ nextPage: 2 }, 20), position: 2, size: 20, want: null },
  // last-page: more while this page is before the last.
  { given: 'a page before the last', style: 'last-page', page: pageOf({ lastPage: 4 }, 10), position: 3, size: 10, want: 4 },
  { given: 'the last page', style: 'last-page', page: pageOf({ lastPage: 4 }, 10), position: 4, size: 10, want: null },
  // page-total: more while page × size is below the total.
  { given: 'a total not reached', style: 'page-total', page: pageOf({ total: 25 }, 10), position: 2, size: 10, want: 3 },
  { given: 'a total reached exactly', style: 'page-total', page: pageOf({ total: 20 }, 10), position: 2, size: 10, want: null },
  { given: 'a total and no size known', style: 'page-total', page: pageOf({ total: 25 }, 10), position: 1, size: 0, want: null },
  // offset-total: the next page starts after the items received, while items remain.
  { given: 'items left after this offset', style: 'offset-total', page: pageOf({ total: 5 }, 2), position: 2, size: 2, want: 4 },
  { given: 'the last items of the total', style: 'offset-total', page: pageOf({ total: 5 }, 1), position: 4, size: 2, want: null },
  { given: 'a short page with items left', style: 'offset-total', page: pageOf({ total: 9 }, 3), position: 0, size: 5, want: 3 },
  // full-page: nothing counts; more while the page was full.
  { given: 'a full page', style: 'full-page', page: pageOf({ total: 10 }, 10), position: 1, size: 10, want: 2 },
  { given: 'a short page', style: 'full-page', page: pageOf({}, 3), position: 1, size: 10, want: null },
  { given: 'no size known', style: 'full-page', page: pageOf({}, 10), position: 1, size: 0, want: null },
  // A page lacking the member its style reads goes on while full, moving as its style does.
  { given: 'page-total without a total, full', style: 'page-total', page: pageOf({}, 10), position: 1, size: 10, want: 2 },
  { given: 'page-total without a total, short', style: 'page-total', page: pageOf({}, 9), position: 1, size: 10, want: null },
  { given: 'offset-total without a total, full', style: 'offset-total', page: pageOf({}, 5), position: 5, size: 5, want: 10 },
  { given: 'page-count without meta at all', style: 'page-count', page: { data: [1, 2] }, position: 1, size: 2, want: 2 },
  // Another member than the style's usual one is read only when the row names it.
  {
    given: 'page-total ignoring a pageCount',
    style: 'page-total',
    page: pageOf({ pageCount: 9, total: 10 }, 10),
    position: 1,
    size: 10,
    want: null,
  },
  // The meta at a dotted path, the items under another name.
  {
    given: 'meta under parametros.paginacao, before the count',
    style: 'page-count',
    pagination: { items: 'cobs', meta: 'parametros.paginacao', member: 'pages', firstPage: 0 },
    page: { parametros: { inicio: 'x', paginacao: { pages: 3 } }, cobs: [1, 2] },
    position: 1,
    size: 2,
    want: 2,
  },
  {
    given: 'meta under parametros.paginacao, at the count',
    style: 'page-count',
    pagination: { items: 'cobs', meta: 'parametros.paginacao', member: 'pages', firstPage: 0 },
    page: { parametros: { paginacao: { pages: 3 } }, cobs: [1, 2] },
    position: 2,
    size: 2,
    want: null,
  },
  {
    given: 'a dotted meta path missing a step (full page)',
    style: 'page-count',
    pagination: { items: 'cobs', meta: 'parametros.paginacao', member: 'pages', firstPage: 0 },
    page: { cobs: [1, 2] },
    position: 0,
    size: 2,
    want: 1,
  },
  // An empty page ends the walk, whatever the meta says; so does a page without its items array.
  ...(Object.keys(memberOf) as PagingStyle[]).flatMap((style): Case[] => [
    {
      given: 'an empty page',
      style,
      page: pageOf({ pageCount: 9, nextPage: 9, lastPage: 9, total: 99 }, 0),
      position: 1,
      size: 10,
      want: null,
    },
    {
      given: 'no items array',
      style,
      page: { meta: { pageCount: 9, nextPage: 9, lastPage: 9, total: 99 } },
      position: 1,
      size: 10,
      want: null,
    },
  ]),
];

describe('nextPosition', () => {
  it.each(cases)('$style: $given -> $want', ({ style, pagination, page, position, size, want }) => {
    expect(nextPosition(paginationOf(style, pagination), page, position, size)).toBe(want);
  });

  it('has a strategy for every style, and a case with more pages and one with none for each', () => {
    const styles = Object.keys(strategies).sort();
    expect(styles).toEqual(Object.keys(memberOf).sort());
    for (const style of styles) {
      const wants = cases.filter((c) => c.style === style).map((c) => c.want);
      expect(
        wants.some((want) => want !== null),
        `${style} has a case with more pages`,
      ).toBe(true);
      expect(
        wants.some((want) => want === null),
        `${style} has a case on the last page`,
      ).toBe(true);
    }
  });
});

/** A document with one paginated list, `GET /things` (`things.list`), its page schema behind $refs. */
function listDocument(pagination: JsonObject, meta: JsonObject = { total: { type: 'integer' } }): JsonObject {
  return {
    openapi: '3.1.0',
    info: { title: 'Paging', version: '1.0.0' },
    paths: {
      '/things': {
        get: {
          operationId: 'things.list',
          'x-pagination': pagination,
          parameters: [
            { name: 'page', in: 'query', schema: { type: 'integer' } },
            { name: 'offset', in: 'query', schema: { type: 'integer' } },
            { name: 'perPage', in: 'query', schema: { type: 'integer', default: 20 } },
          ],
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingList' } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        ThingList: {
          allOf: [
            { type: 'object', properties: { data: { type: 'array', items: { type: 'string' } } } },
            { type: 'object', properties: { meta: { $ref: '#/components/schemas/PageMeta' } } },
          ],
        },
        PageMeta: { type: 'object', properties: meta },
      },
    },
  };
}

/** The pagination row of `things.list` in the emitted operation table. */
function rowOf(document: JsonObject): unknown {
  const code = emitOperations(document, 'things');
  const table = /operationTable = (\{[\s\S]*?\n\}) as const/.exec(code);
  expect(table, 'the emitted operationTable').not.toBeNull();
  return (JSON.parse(table![1]!) as Record<string, { pagination: unknown }>)['things.list']!.pagination;
}

describe('emitOperations: x-pagination', () => {
  it.each([
    {
      given: 'page-total, the member by default',
      pagination: { style: 'page-total', page: 'page', size: 'perPage' },
      meta: { total: { type: 'integer' } },
      want: {
        style: 'page-total',
        position: 'page',
        size: 'perPage',
        defaultSize: 20,
        firstPage: 1,
        items: 'data',
        meta: 'meta',
        member: 'total',
      },
    },
    {
      given: 'page-count, its member named, pages from 0',
      pagination: { style: 'page-count', member: 'pageCount', page: 'page', size: 'perPage', firstPage: 0 },
      meta: { pageCount: { type: 'integer' } },
      want: {
        style: 'page-count',
        position: 'page',
        size: 'perPage',
        defaultSize: 20,
        firstPage: 0,
        items: 'data',
        meta: 'meta',
        member: 'pageCount',
      },
    },
    {
      given: 'offset-total, the position an offset',
      pagination: { style: 'offset-total', offset: 'offset', size: 'perPage' },
      meta: { total: { type: 'integer' } },
      want: {
        style: 'offset-total',
        position: 'offset',
        size: 'perPage',
        defaultSize: 20,
        firstPage: 0,
        items: 'data',
        meta: 'meta',
        member: 'total',
      },
    },
    {
      given: 'full-page, no member read',
      pagination: { style: 'full-page', page: 'page', size: 'perPage' },
      meta: {},
      want: {
        style: 'full-page',
        position: 'page',
        size: 'perPage',
        defaultSize: 20,
        firstPage: 1,
        items: 'data',
        meta: 'meta',
        member: null,
      },
    },
  ])('$given', ({ pagination, meta, want }) => {
    expect(rowOf(listDocument(pagination, meta))).toEqual(want);
  });

  it.each([
    {
      given: 'no style',
      pagination: { page: 'page', size: 'perPage' },
      want: 'things.list: x-pagination has no style (one of page-count, next-page, last-page, page-total, offset-total, full-page)',
    },
    {
      given: 'an unknown style',
      pagination: { style: 'cursor', page: 'page', size: 'perPage' },
      want: 'things.list: x-pagination style "cursor" is unknown (one of page-count, next-page, last-page, page-total, offset-total, full-page)',
    },
    {
      given: 'a style whose meta member the page schema lacks',
      pagination: { style: 'next-page', page: 'page', size: 'perPage' },
      want: 'things.list: x-pagination style next-page reads `meta.nextPage`, which the page schema does not declare',
    },
    {
      given: 'a named member the page schema lacks',
      pagination: { style: 'page-count', member: 'quantity', page: 'page', size: 'perPage' },
      want: 'things.list: x-pagination style page-count reads `meta.quantity`, which the page schema does not declare',
    },
    {
      given: 'a meta path the page schema lacks',
      pagination: { style: 'page-total', page: 'page', size: 'perPage', meta: 'paging' },
      want: 'things.list: x-pagination style page-total reads `paging.total`, which the page schema does not declare',
    },
    {
      given: 'page-count without its member',
      pagination: { style: 'page-count', page: 'page', size: 'perPage' },
      want: 'things.list: x-pagination style page-count needs `member`, the meta member it reads',
    },
    {
      given: 'full-page with a member',
      pagination: { style: 'full-page', member: 'total', page: 'page', size: 'perPage' },
      want: 'things.list: x-pagination style full-page reads no member',
    },
    {
      given: 'offset-total with a page parameter',
      pagination: { style: 'offset-total', page: 'page', size: 'perPage' },
      want: 'things.list: x-pagination style offset-total names its position parameter in `offset` (and not in `page`)',
    },
    {
      given: 'a page style with an offset parameter',
      pagination: { style: 'page-total', offset: 'offset', size: 'perPage' },
      want: 'things.list: x-pagination style page-total names its position parameter in `page` (and not in `offset`)',
    },
    {
      given: 'items the page schema lacks',
      pagination: { style: 'page-total', page: 'page', size: 'perPage', items: 'things' },
      want: 'things.list: x-pagination items `things` is not a member of the page',
    },
    {
      given: 'a size parameter that does not exist',
      pagination: { style: 'page-total', page: 'page', size: 'limit' },
      want: 'things.list: x-pagination names query parameters that do not exist',
    },
  ])('refuses $given', ({ pagination, want }) => {
    expect(() => emitOperations(listDocument(pagination), 'things')).toThrow(want);
  });
});
