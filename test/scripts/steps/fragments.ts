/**
 * Tiny OpenAPI 3.1 documents for the generator step tests, a scratch folder under the system's temp
 * folder, and a way to import what a step emitted from it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../../scripts/lib.js';
import type { JsonObject } from '../../../scripts/openapi-model.js';

/** The spec a fragment stands for, as the steps name it in their banners. */
export const fragmentSource = 'specs/fragment/openapi.yaml';

/** A complete document around a fragment: `paths`, `components`, `security`, `webhooks` as given. */
export function documentOf(fragment: JsonObject): JsonObject {
  return { openapi: '3.1.0', info: { title: 'Fragment', version: '1.0.0' }, paths: {}, ...fragment };
}

/** A path item with one operation (GET unless told): a bodiless 200, with the fields given merged over it. */
export function operationAt(path: string, operation: JsonObject, method = 'get'): JsonObject {
  return { [path]: { [method]: { responses: { '200': { description: 'ok' } }, ...operation } } };
}

export interface Scratch {
  readonly dir: string;
  /** Writes `content` to `name` below the scratch folder and returns its absolute path. */
  write(name: string, content: string): string;
  /** Imports a module written there (a fresh name per call, so nothing is cached between cases). */
  import<T>(name: string, content: string): Promise<T>;
  remove(): void;
}

export function scratchDir(label: string): Scratch {
  const dir = mkdtempSync(join(tmpdir(), `contrato-${label}-`));
  let count = 0;
  const write = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  return {
    dir,
    write,
    import: async <T>(name: string, content: string): Promise<T> => {
      const [stem, extension] = name.split(/\.(?=[^.]+$)/);
      const path = write(`${stem}-${++count}.${extension}`, content);
      return (await import(pathToFileURL(path).href)) as T;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * An emitted validators module made importable from the scratch folder: its format table and its
 * `require` resolve from the project, as they do from generated/<interface>/.
 */
export function relocatedValidators(code: string): string {
  const formats = pathToFileURL(join(projectRoot, 'src/formats/validator-formats.ts')).href;
  const relocated = code
    .replace('"../../src/formats/validator-formats.js"', JSON.stringify(formats))
    .replace('createRequire(import.meta.url)', `createRequire(${JSON.stringify(join(projectRoot, 'package.json'))})`);
  if (!relocated.includes(formats)) throw new Error('the emitted validators no longer import src/formats/validator-formats.js');
  return relocated;
}

/** Whitespace collapsed, so fragments of emitted TypeScript can be compared whatever the indentation. */
export function squeezed(text: string): string {
  return text.replace(/\s+/g, ' ');
}
