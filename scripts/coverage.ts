/**
 * `npm run coverage`: checks specs/traceability.yaml against the inventory of the interface
 * specification (specs/inventory.json) — every operation, shape, message, event, rule and "not shown"
 * item accounted for; every spec pointer resolving in its bundle; every test file existing and, for a
 * rule, naming it (or a reason given when no client can check it) — then writes docs/coverage.md.
 * Exits 1 with the list of problems when anything is unaccounted for or dangling.
 */
import { bundleOperations } from '../src/bundle-operations.js';
import { pointerTokens } from '../src/runtime/json-pointer.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { definitions as allDefinitions } from '../src/interfaces.js';
import type { InterfaceDefinition } from '../src/runtime/definition.js';
import { projectRoot } from './lib.js';

/** A parsed JSON or YAML object (a bundle, the traceability); its members are `unknown` until read and checked. */
type Json = Record<string, unknown>;

/** What the check reads of specs/inventory.json: the items of the interface specification, by kind. */
interface Inventory {
  readonly operations: readonly {
    readonly id: string;
    readonly interface: string;
    readonly method: string | null;
    readonly path: string | null;
    readonly pathShown: boolean;
  }[];
  readonly rules: readonly { readonly id: string; readonly interface: string; readonly alsoInterfaces?: readonly string[] }[];
  readonly shapes: readonly { readonly name: string; readonly interface: string }[];
  readonly messages: readonly { readonly name: string }[];
  readonly events: readonly { readonly type: string }[];
  readonly notShown: readonly { readonly text: string; readonly seedSection: string }[];
}

/** An item the interface specification does not show, as specs/traceability.yaml accounts for it. */
interface NotShownEntry {
  readonly item?: string;
  readonly section?: string | number;
  readonly handling?: string;
}
const enforcements = ['schema', 'code', 'runtime', 'not-checkable'] as const;
const statuses = ['exact', 'standard', 'provisional', 'named-only'] as const;

/** What coverage reads of an interface definition: its letter, names and spec documents. */
type CoveredDefinition = Pick<InterfaceDefinition<never>, 'name' | 'letter' | 'title' | 'documents'>;

interface Entry {
  readonly status?: string;
  readonly enforced?: (typeof enforcements)[number];
  readonly spec?: string[];
  readonly file?: string;
  readonly tests?: string[];
  readonly reason?: string;
}

export interface Coverage {
  readonly problems: string[];
  readonly markdown: string;
}

/** The node a `<document>#<pointer>` names, or undefined when it names nothing. */
function pointed(pointer: string, bundles: Map<string, Json>): unknown {
  const [document, path = ''] = pointer.split('#');
  let node: unknown = bundles.get(document!);
  for (const key of pointerTokens(path)) {
    if (node === null || typeof node !== 'object' || !(key in (node as Json))) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/**
 * The status an operation pointer shows in its bundle: provisional (`x-provisional`), standard (`x-source`,
 * described from the API Pix standard), named-only (an `x-named-not-specified` entry), else exact.
 */
function statusInBundle(pointer: string, node: unknown): string {
  if (pointer.includes('#/x-named-not-specified/')) return 'named-only';
  const operation = (node ?? {}) as Json;
  if (operation['x-provisional'] === true) return 'provisional';
  if (typeof operation['x-source'] === 'string') return 'standard';
  return 'exact';
}

/**
 * `trace` replaces specs/traceability.yaml (tests break a copy on purpose); `definitions` the interfaces of
 * src/interfaces.ts (one section each, in their order).
 */
export function computeCoverage(options: { root?: string; trace?: Json; definitions?: readonly CoveredDefinition[] } = {}): Coverage {
  const root = options.root ?? projectRoot;
  const definitions = options.definitions ?? allDefinitions;
  // The spec documents of each interface letter: a pointer of an item of B may point into pix or pix-location, never accounts.
  const documentsOf: Record<string, readonly string[]> = Object.fromEntries(
    definitions.map((definition) => [definition.letter, definition.documents.map((document) => document.name)]),
  );
  const inventory = JSON.parse(readFileSync(join(root, 'specs/inventory.json'), 'utf8')) as Inventory;
  const trace = options.trace ?? (parse(readFileSync(join(root, 'specs/traceability.yaml'), 'utf8')) as Json);
  const bundles = new Map<string, Json>();
  for (const { name } of definitions.flatMap((definition) => definition.documents))
    bundles.set(name, JSON.parse(readFileSync(join(root, 'generated', name, 'openapi.json'), 'utf8')) as Json);
  const testText = new Map<string, string>();
  const readTest = (file: string): string | undefined => {
    if (!testText.has(file)) testText.set(file, existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : '');
    return testText.get(file) || undefined;
  };
  const problems: string[] = [];

  const checkEntry = (
    kind: string,
    id: string,
    entry: Entry | undefined,
    options: { rule?: boolean; interfaces?: readonly string[] } = {},
  ): void => {
    if (!entry) return void problems.push(`${kind} ${id}: not accounted for in specs/traceability.yaml`);
    const ownDocuments = (options.interfaces ?? []).flatMap((letter) => documentsOf[letter] ?? []);
    for (const pointer of entry.spec ?? []) {
      if (pointed(pointer, bundles) === undefined) problems.push(`${kind} ${id}: spec pointer ${pointer} does not resolve`);
      const document = pointer.split('#')[0]!;
      if (ownDocuments.length > 0 && !ownDocuments.includes(document))
        problems.push(
          `${kind} ${id}: spec pointer ${pointer} is in ${document}, not in a document of its interface (${ownDocuments.join(', ')})`,
        );
    }
    if (entry.file && !existsSync(join(root, entry.file))) problems.push(`${kind} ${id}: file ${entry.file} does not exist`);
    for (const test of entry.tests ?? []) {
      const text = readTest(test);
      if (!text) problems.push(`${kind} ${id}: test ${test} does not exist`);
    }
    if (options.rule) {
      if (!entry.enforced || !enforcements.includes(entry.enforced))
        problems.push(`rule ${id}: enforced must be one of ${enforcements.join(', ')}`);
      if (entry.enforced === 'not-checkable' && !entry.reason) problems.push(`rule ${id}: not checkable, but no reason given`);
      if (entry.enforced !== 'not-checkable' && !(entry.tests ?? []).some((test) => readTest(test)?.includes(id)))
        problems.push(`rule ${id}: no listed test names it`);
    } else if ((entry.spec ?? []).length === 0) {
      problems.push(`${kind} ${id}: no spec pointer`);
    }
  };

  const operations = (trace.operations ?? {}) as Record<string, Entry>;
  for (const operation of inventory.operations) {
    const entry = operations[operation.id];
    checkEntry('operation', operation.id, entry, { interfaces: [operation.interface] });
    checkOperationStatus(operation, entry, bundles, problems);
  }
  const shapes = (trace.shapes ?? {}) as Record<string, Entry>;
  for (const shape of inventory.shapes)
    checkEntry('shape', `${shape.interface}.${shape.name}`, shapes[`${shape.interface}.${shape.name}`], { interfaces: [shape.interface] });
  const messages = (trace.messages ?? {}) as Record<string, Entry>;
  for (const message of inventory.messages) checkEntry('message', message.name, messages[message.name]);
  const events = (trace.events ?? {}) as Record<string, Entry>;
  for (const event of inventory.events) checkEntry('event', event.type, events[event.type]);
  const rules = (trace.rules ?? {}) as Record<string, Entry>;
  for (const rule of inventory.rules)
    checkEntry('rule', rule.id, rules[rule.id], { rule: true, interfaces: [rule.interface, ...(rule.alsoInterfaces ?? [])] });
  // Rules of the API Pix standard that interface B follows though the interface specification does not state them.
  const standardRules = (trace.standardRules ?? {}) as Record<string, Entry & { readonly source?: string }>;
  for (const [id, entry] of Object.entries(standardRules)) {
    if (!/^R-B-std-[a-z0-9-]+$/.test(id)) problems.push(`standard rule ${id}: ids of standard rules are R-B-std-<name>`);
    if (!entry.source) problems.push(`standard rule ${id}: no source in the standard given`);
    checkEntry('standard rule', id, entry, { rule: true, interfaces: ['B'] });
  }
  const notShown = (trace.notShown ?? []) as NotShownEntry[];
  inventory.notShown.forEach((item, index) => {
    const entry = notShown.find((candidate) => candidate.item === item.text && String(candidate.section) === String(item.seedSection));
    if (!entry) problems.push(`not-shown item ${index} (${item.text}): not accounted for`);
    else if (!entry.handling) problems.push(`not-shown item ${index} (${item.text}): no handling given`);
  });
  const known = {
    operations: new Set(inventory.operations.map((o) => o.id)),
    rules: new Set(inventory.rules.map((r) => r.id)),
  };
  for (const id of Object.keys(operations))
    if (!known.operations.has(id)) problems.push(`operation ${id}: in the traceability but not in the inventory`);
  for (const id of Object.keys(rules)) if (!known.rules.has(id)) problems.push(`rule ${id}: in the traceability but not in the inventory`);

  return { problems, markdown: render(definitions, bundles, inventory, operations, rules, notShown, standardRules) };
}

/**
 * An operation's status must be what its bundle shows (a provisional route says so in the spec), and an
 * exact one must have the method and path the interface specification shows.
 */
function checkOperationStatus(
  operation: Inventory['operations'][number],
  entry: Entry | undefined,
  bundles: Map<string, Json>,
  problems: string[],
): void {
  const pointer = entry?.spec?.[0];
  if (!entry || !pointer) return;
  const node = pointed(pointer, bundles);
  if (node === undefined) return;
  const shown = statusInBundle(pointer, node);
  if (entry.status !== shown)
    problems.push(`operation ${operation.id}: status ${entry.status} in the traceability, ${shown} in ${pointer}`);
  if (entry.status !== 'exact' || !operation.pathShown || !operation.method || !operation.path) return;
  const route = /^[^#]+#\/paths\/([^/]+)\/([a-z]+)$/.exec(pointer);
  const path = route ? pointerTokens(`/${route[1]}`)[0] : undefined;
  if (!route || route[2] !== operation.method.toLowerCase() || path !== operation.path)
    problems.push(
      `operation ${operation.id}: exact, but ${pointer} is not ${operation.method} ${operation.path} as the interface specification shows`,
    );
}

function render(
  definitions: readonly CoveredDefinition[],
  bundles: ReadonlyMap<string, Json>,
  inventory: Inventory,
  operations: Record<string, Entry>,
  rules: Record<string, Entry>,
  notShown: NotShownEntry[],
  standardRules: Record<string, Entry & { readonly source?: string }>,
): string {
  const lines = [
    '# Coverage of the interface specification',
    '',
    'Written by `npm run coverage` from `specs/traceability.yaml`, checked against `specs/inventory.json`; do not edit.',
    'Operations: **exact** (method and path as shown), **standard** (named through the API Pix services and described',
    'from the standard), **provisional** (shapes given, route chosen here), **named-only** (no shapes: not invented).',
    'Rules: enforced in the **schema** (the validators of the specs), in **code** (named cross-field checks), at',
    '**runtime** (client behaviour: retries, tokens, TLS, flows), or **not checkable** by a client (with the reason).',
    '',
    `All ${inventory.operations.length} operations, ${inventory.rules.length} rules, ${inventory.shapes.length} shapes, ${inventory.messages.length} messages, ${inventory.events.length} event types and ${inventory.notShown.length} "not shown" items are accounted for.`,
    '',
  ];
  for (const definition of definitions) {
    const { letter } = definition;
    lines.push(`## ${definition.title} (${letter}) — \`contrato/${definition.name}\``, '');
    const ofInterface = inventory.operations.filter((o) => o.interface === letter);
    if (ofInterface.length === 0) {
      // An interface of this toolkit the interface specification does not describe: nothing of it to account for.
      const ids = definition.documents.flatMap(({ name }) =>
        bundleOperations(bundles.get(name) ?? {}).map(({ operation }) => String(operation.operationId)),
      );
      lines.push(
        `Not described by the interface specification: its inventory names no item of interface ${letter}. Its ${ids.length} operations, from its specs: ${ids.map((id) => `\`${id}\``).join(', ')}.`,
        '',
      );
      continue;
    }
    const byStatus = new Map<string, string[]>();
    for (const operation of ofInterface) {
      const status = operations[operation.id]?.status ?? 'unaccounted';
      byStatus.set(status, [...(byStatus.get(status) ?? []), operation.id]);
    }
    const rulesOf = inventory.rules.filter((r) => r.interface === letter);
    const byEnforcement = new Map<string, string[]>();
    for (const rule of rulesOf) {
      const enforced = rules[rule.id]?.enforced ?? 'unaccounted';
      byEnforcement.set(enforced, [...(byEnforcement.get(enforced) ?? []), rule.id]);
    }
    lines.push(
      `**Operations** (${ofInterface.length}): ${statuses.map((status) => `${byStatus.get(status)?.length ?? 0} ${status}`).join(', ')}.`,
      '',
    );
    lines.push('| status | operations |', '|---|---|');
    for (const status of statuses) {
      const ids = byStatus.get(status) ?? [];
      if (ids.length) lines.push(`| ${status} | ${ids.map((id) => `\`${id}\``).join(', ')} |`);
    }
    lines.push(
      '',
      `**Rules** (${rulesOf.length}): ${enforcements.map((kind) => `${byEnforcement.get(kind)?.length ?? 0} ${kind}`).join(', ')}.`,
      '',
    );
    const unchecked = byEnforcement.get('not-checkable') ?? [];
    if (unchecked.length) {
      lines.push('| not checkable by a client | reason |', '|---|---|');
      for (const id of unchecked) lines.push(`| \`${id}\` | ${(rules[id]?.reason ?? '').replace(/\|/g, '\\|')} |`);
      lines.push('');
    }
  }
  const standardIds = Object.keys(standardRules);
  lines.push(`## Rules of the API Pix standard followed by interface B (${standardIds.length})`, '');
  lines.push('Not stated by the interface specification, so not in its inventory; interface B *is* the standard (design policy 2).', '');
  lines.push('| rule | enforced | source |', '|---|---|---|');
  for (const id of standardIds)
    lines.push(`| \`${id}\` | ${standardRules[id]?.enforced ?? ''} | ${(standardRules[id]?.source ?? '').replace(/\|/g, '\\|')} |`);
  lines.push('');
  lines.push(`## Shapes, messages, events`, '');
  lines.push(
    `${inventory.shapes.length} shapes, ${inventory.messages.length} messages and ${inventory.events.length} event types, each mapped to its schema in \`specs/traceability.yaml\`.`,
    '',
  );
  lines.push(
    `## Items the interface specification does not show (${notShown.length})`,
    '',
    '| section | item | handling |',
    '|---|---|---|',
  );
  for (const item of notShown)
    lines.push(`| ${item.section} | ${String(item.item).replace(/\|/g, '\\|')} | ${String(item.handling).replace(/\|/g, '\\|')} |`);
  return `${lines.join('\n')}\n`;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split('/').pop()!);
if (invokedDirectly) {
  const { problems, markdown } = computeCoverage();
  writeFileSync(join(projectRoot, 'docs/coverage.md'), markdown);
  if (problems.length > 0) {
    console.error(`coverage: ${problems.length} problem(s):\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    process.exit(1);
  }
  console.log('coverage: every item of the interface specification is accounted for; docs/coverage.md written');
}
