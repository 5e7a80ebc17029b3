/**
 * JSON helpers that never recurse, so no nesting depth can overflow the call stack: the nesting depth of
 * a JSON text or value, and a serialization that equals JSON.stringify (used for dedupe keys).
 */

/**
 * How deeply a delivery (a webhook event, a Pix notification) may nest objects and arrays by default. The payloads of section 6 nest five
 * levels; the limit refuses, before parsing, bodies built to exhaust whatever walks them.
 */
export const defaultMaxNestingDepth = 64;

/** Whether the JSON `text` nests objects and arrays deeper than `limit`, read in one pass without parsing. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index += 1;
      else if (code === 0x22 /* " */) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Whether a value (already parsed) nests objects and arrays deeper than `limit`. It walks no further
 * than `limit + 1` levels, so a cyclic value is reported as too deep rather than walked forever.
 */
export function valueNestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [current, depth] = next;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

const omitted = Symbol('omitted');
type Literal = { readonly literal: string };
type Exit = { readonly exit: object };
type Work = Literal | Exit | { readonly value: unknown };

/** What JSON.stringify writes for `value` under `key`: after toJSON; `omitted` where it writes nothing. */
function jsonValue(value: unknown, key: string): unknown {
  const withJson = value as { toJSON?: (key: string) => unknown } | null | undefined;
  const resolved = typeof withJson?.toJSON === 'function' ? withJson.toJSON(key) : value;
  if (resolved === undefined || typeof resolved === 'function' || typeof resolved === 'symbol') return omitted;
  if (resolved instanceof Number || resolved instanceof String || resolved instanceof Boolean) return resolved.valueOf();
  return resolved;
}

/**
 * The same text as JSON.stringify(value) (without replacer or indentation), built with an explicit stack
 * instead of recursion. Throws a TypeError on a cycle or a BigInt, as JSON.stringify does.
 */
export function stringifyIteratively(value: unknown): string | undefined {
  const root = jsonValue(value, '');
  if (root === omitted) return undefined;
  const out: string[] = [];
  const path = new Set<object>();
  const work: Work[] = [{ value: root }];
  for (let item = work.pop(); item; item = work.pop()) {
    if ('literal' in item) {
      out.push(item.literal);
      continue;
    }
    if ('exit' in item) {
      path.delete(item.exit);
      continue;
    }
    const current = item.value;
    if (typeof current === 'bigint') throw new TypeError('Do not know how to serialize a BigInt');
    if (typeof current !== 'object' || current === null) {
      out.push(JSON.stringify(current));
      continue;
    }
    if (path.has(current)) throw new TypeError('Converting circular structure to JSON');
    path.add(current);
    // Pushed in reverse: the stack hands them back in writing order.
    const parts: Work[] = [];
    if (Array.isArray(current)) {
      parts.push({ literal: '[' });
      // An index loop, not forEach: holes of a sparse array are written as null, as JSON.stringify does.
      for (let index = 0; index < current.length; index += 1) {
        if (index > 0) parts.push({ literal: ',' });
        const resolved = jsonValue(current[index], String(index));
        parts.push(resolved === omitted ? { literal: 'null' } : { value: resolved });
      }
      parts.push({ literal: ']' });
    } else {
      parts.push({ literal: '{' });
      let first = true;
      for (const [key, member] of Object.entries(current)) {
        const resolved = jsonValue(member, key);
        if (resolved === omitted) continue;
        parts.push({ literal: `${first ? '' : ','}${JSON.stringify(key)}:` }, { value: resolved });
        first = false;
      }
      parts.push({ literal: '}' });
    }
    parts.push({ exit: current });
    for (let index = parts.length - 1; index >= 0; index -= 1) work.push(parts[index]!);
  }
  return out.join('');
}
