/**
 * `npm run coverage`: checks specs/traceability.yaml against the inventory of the interface
 * specification (specs/inventory.json) — every operation, shape, message, event, rule and "not shown"
 * item accounted for; every spec pointer resolving in its bundle; every test file existing and, for a
 * rule, naming it (or a reason given when no client can check it) — then writes docs/coverage.md.
 * Exits 1 with the list of problems when anything is unaccounted for or dangling.
 */
import { pointerTokens } from '../src/runtime/json-pointer.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { definitions, interfaces } from '../src/interfaces.js';
import { projectRoot } from './lib.js';

/** A parsed JSON or YAML object (a bundle, the traceability); its members are `unknown` until read and checked. */
type Json = Record<string, unknown>;

/** What the check reads of specs/inventory.json: the items of the interface specification, by kind. */
interface Inventory {
  readonly operations: readonly { readonly id: string; readonly interface: string }[];
  readonly rules: readonly { readonly id: string; readonly interface: string }[];
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
// The interfaces by the letter the interface specification gives them, from their definitions.
const letters: Record<string, string> = Object.fromEntries(definitions.map((definition) => [definition.letter, definition.name]));
const titles: Record<string, string> = Object.fromEntries(
  definitions.map((definition) => [definition.letter, `${definition.title} (${definition.letter})`]),
);
const enforcements = ['schema', 'code', 'runtime', 'not-checkable'] as const;

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

function pointerResolves(pointer: string, bundles: Map<string, Json>): boolean {
  const [document, path = ''] = pointer.split('#');
  const bundle = bundles.get(document!);
  if (!bundle) return false;
  let node: unknown = bundle;
  for (const key of pointerTokens(path)) {
    if (node === null || typeof node !== 'object' || !(key in (node as Json))) return false;
    node = (node as Json)[key];
  }
  return true;
}

/** `trace` replaces specs/traceability.yaml (tests break a copy on purpose). */
export function computeCoverage(options: { root?: string; trace?: Json } = {}): Coverage {
  const root = options.root ?? projectRoot;
  const inventory = JSON.parse(readFileSync(join(root, 'specs/inventory.json'), 'utf8')) as Inventory;
  const trace = options.trace ?? (parse(readFileSync(join(root, 'specs/traceability.yaml'), 'utf8')) as Json);
  const bundles = new Map<string, Json>();
  for (const { name } of interfaces)
    bundles.set(name, JSON.parse(readFileSync(join(root, 'generated', name, 'openapi.json'), 'utf8')) as Json);
  const testText = new Map<string, string>();
  const readTest = (file: string): string | undefined => {
    if (!testText.has(file)) testText.set(file, existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : '');
    return testText.get(file) || undefined;
  };
  const problems: string[] = [];

  const checkEntry = (kind: string, id: string, entry: Entry | undefined, options: { rule?: boolean } = {}): void => {
    if (!entry) return void problems.push(`${kind} ${id}: not accounted for in specs/traceability.yaml`);
    for (const pointer of entry.spec ?? [])
      if (!pointerResolves(pointer, bundles)) problems.push(`${kind} ${id}: spec pointer ${pointer} does not resolve`);
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
  for (const operation of inventory.operations) checkEntry('operation', operation.id, operations[operation.id]);
  const shapes = (trace.shapes ?? {}) as Record<string, Entry>;
  for (const shape of inventory.shapes) checkEntry('shape', `${shape.interface}.${shape.name}`, shapes[`${shape.interface}.${shape.name}`]);
  const messages = (trace.messages ?? {}) as Record<string, Entry>;
  for (const message of inventory.messages) checkEntry('message', message.name, messages[message.name]);
  const events = (trace.events ?? {}) as Record<string, Entry>;
  for (const event of inventory.events) checkEntry('event', event.type, events[event.type]);
  const rules = (trace.rules ?? {}) as Record<string, Entry>;
  for (const rule of inventory.rules) checkEntry('rule', rule.id, rules[rule.id], { rule: true });
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

  return { problems, markdown: render(inventory, operations, rules, notShown) };
}

function render(inventory: Inventory, operations: Record<string, Entry>, rules: Record<string, Entry>, notShown: NotShownEntry[]): string {
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
  for (const letter of ['A', 'B', 'C', 'D']) {
    const ofInterface = inventory.operations.filter((o) => o.interface === letter);
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
    lines.push(`## ${titles[letter]} — \`contrato/${letters[letter]}\``, '');
    lines.push(
      `**Operations** (${ofInterface.length}): ${['exact', 'standard', 'provisional', 'named-only'].map((status) => `${byStatus.get(status)?.length ?? 0} ${status}`).join(', ')}.`,
      '',
    );
    lines.push('| status | operations |', '|---|---|');
    for (const status of ['exact', 'standard', 'provisional', 'named-only']) {
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
