/**
 * The curl samples run without curl or jq: the few shell forms the generator writes (scripts/steps/
 * sample-sources.ts) read and sent through `fetch` — comment lines, `NAME=$(curl … | jq -r 'filter')`,
 * `NAME=$(curl …)`, `NAME=$(printf '%s' "$ANSWER" | jq -r 'filter')`, `curl -o /dev/null …` and the final
 * `curl -sS -i …` — with words made of quoted and unquoted parts and `$NAME` expanded inside double quotes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Shell words of one command: adjacent '…', "…" (with $NAME expanded) and bare parts make one word. */
export function shellWords(command: string, variables: ReadonlyMap<string, string>): string[] {
  const expand = (text: string): string =>
    text.replace(
      /\$(\w+)|\$\{(\w+)\}/g,
      (_whole, name: string | undefined, braced: string | undefined) => variables.get(name ?? braced!) ?? '',
    );
  const words: string[] = [];
  let current: string | null = null;
  const text = command.replace(/\\\n/g, ' ');
  // '…' literal, "…" expanded, \x one character, bare text expanded, blanks between words.
  const part = /'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)|([^\s'"\\]+)|(\s+)/g;
  for (const match of text.matchAll(part)) {
    if (match[5] !== undefined) {
      if (current !== null) words.push(current);
      current = null;
      continue;
    }
    const quoted = match[2] === undefined ? undefined : expand(match[2].replace(/\\(.)/g, '$1'));
    current = (current ?? '') + (match[1] ?? match[3] ?? quoted ?? expand(match[4]!));
  }
  if (current !== null) words.push(current);
  return words;
}

/** What `jq -r` prints for a path filter (`.a.b[0]["c-d"]`) applied to a JSON text. */
export function jqPath(json: string, filter: string): string {
  let value: unknown = JSON.parse(json);
  const steps = filter.match(/\.(?:[A-Za-z_$][\w$]*)|\[(?:\d+|"(?:[^"\\]|\\.)*")\]/g) ?? [];
  for (const step of steps) {
    const key = step.startsWith('.') ? step.slice(1) : (JSON.parse(step.slice(1, -1)) as string | number);
    value = value === null || typeof value !== 'object' ? null : (value as Record<string | number, unknown>)[key];
  }
  if (value === undefined || value === null) return 'null';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One curl command sent with fetch: its status and body text. */
async function fetchCurl(words: readonly string[], folder: string): Promise<{ status: number; text: string }> {
  let method = 'GET';
  let url = '';
  const headers = new Headers();
  const form = new URLSearchParams();
  const multipart = new FormData();
  let body: string | URLSearchParams | FormData | undefined;
  const sends = (next: typeof body): void => {
    body = next;
    if (method === 'GET') method = 'POST';
  };
  for (let index = 1; index < words.length; index += 1) {
    const word = words[index]!;
    const next = (): string => words[++index]!;
    if (word === '-X') method = next();
    else if (word === '-o') next();
    else if (word === '-H') {
      const [name, ...value] = next().split(':');
      headers.set(name!, value.join(':').trim());
    } else if (word === '-d') sends(next());
    else if (word === '--data-urlencode') {
      const [name, ...value] = next().split('=');
      form.append(name!, value.join('='));
      sends(form);
    } else if (word === '-F') {
      const [name, ...value] = next().split('=');
      const text = value.join('=');
      if (text.startsWith('@')) {
        const [file, type] = text.slice(1).split(';type=');
        multipart.append(name!, new Blob([readFileSync(join(folder, file!))], { type: type ?? '' }), file);
      } else multipart.append(name!, text);
      sends(multipart);
    } else if (word === '-u') headers.set('authorization', `Basic ${Buffer.from(next()).toString('base64')}`);
    else if (/^https?:/.test(word)) url = word;
  }
  if (typeof body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded');
  const answer = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
  return { status: answer.status, text: await answer.text() };
}

/** The logical lines of a script: continuations joined, blank lines dropped. */
function commandsOf(source: string): string[] {
  const commands: string[] = [];
  let pending = '';
  for (const line of source.split('\n')) {
    pending += line;
    if (line.endsWith('\\')) pending += '\n';
    else {
      if (pending.trim() !== '') commands.push(pending);
      pending = '';
    }
  }
  return commands;
}

/** Runs a curl sample through fetch: the status of every request it printed with `-i` (the operation's). */
export async function runShellWithFetch(source: string, folder: string): Promise<number[]> {
  const variables = new Map<string, string>();
  const statuses: number[] = [];
  for (const command of commandsOf(source)) {
    if (command.startsWith('#')) continue;
    const assignment = /^(\w+)=\$\(([\s\S]*)\)$/.exec(command);
    if (!assignment) {
      const words = shellWords(command, variables);
      if (words[0] !== 'curl') throw new Error(`the fetch stand-in reads curl commands only, not: ${command}`);
      const { status } = await fetchCurl(words, folder);
      if (words.includes('-i')) statuses.push(status);
      continue;
    }
    const [, name, inner] = assignment as unknown as [string, string, string];
    const [producer, filter] = inner.split(/\s*\\?\n?\s*\|\s*jq -r /) as [string, string | undefined];
    const words = shellWords(producer, variables);
    let text: string;
    if (words[0] === 'printf') text = words[2]!;
    else if (words[0] === 'curl') text = (await fetchCurl(words, folder)).text;
    else throw new Error(`the fetch stand-in reads curl and printf in $( ), not: ${producer}`);
    variables.set(name, filter === undefined ? text : jqPath(text, shellWords(filter, variables)[0]!));
  }
  return statuses;
}
