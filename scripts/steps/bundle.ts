/** Lint a spec with Redocly's rules and bundle it into one JSON document, in-process. */
import { bundle, lint, loadConfig, type NormalizedProblem } from '@redocly/openapi-core';
import { join } from 'node:path';
import { projectRoot } from '../lib.js';
import type { JsonObject } from '../openapi-model.js';

process.env.REDOCLY_TELEMETRY = 'off';
process.env.REDOCLY_SUPPRESS_UPDATE_NOTICE = 'true';

async function config() {
  return loadConfig({ configPath: join(projectRoot, 'redocly.yaml') });
}

function describe(problems: NormalizedProblem[]): string {
  return problems
    .map((problem) => {
      const where = problem.location[0];
      // Redocly's pointer already starts with '#'.
      const pointer = (where?.pointer ?? '').replace(/^#?/, '#');
      const at = where ? `${where.source.absoluteRef.replace(`${projectRoot}/`, '')}${pointer}` : '';
      return `  ${problem.severity} ${problem.ruleId}: ${problem.message} ${at}`;
    })
    .join('\n');
}

/** Lint: any error or warning fails (the project keeps zero unexplained warnings). */
export async function lintSpec(root: string): Promise<void> {
  const problems = await lint({ ref: join(projectRoot, root), config: await config() });
  const reported = problems.filter((problem) => problem.ignored !== true);
  if (reported.length > 0) {
    throw new Error(`redocly lint found ${reported.length} problem(s) in ${root}:\n${describe(reported)}`);
  }
}

export async function bundleSpec(root: string): Promise<JsonObject> {
  const result = await bundle({
    ref: join(projectRoot, root),
    config: await config(),
    componentNamesStrategy: 'title',
  });
  const errors = result.problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) throw new Error(`bundling ${root} failed:\n${describe(errors)}`);
  return withoutDocumentIdentity(result.bundle.parsed as JsonObject);
}

/**
 * A standalone schema file (a message of interface C) carries `$id`, `$schema` and local `$defs`; once
 * bundled, its `$ref`s point at `#/components/schemas/…`, so `$id` would re-base them and break every
 * consumer. The bundle keeps the schema and drops its identity: the files keep it for direct use.
 */
function withoutDocumentIdentity(document: JsonObject): JsonObject {
  const schemas = (document.components as JsonObject | undefined)?.schemas as Record<string, JsonObject> | undefined;
  for (const schema of Object.values(schemas ?? {})) {
    delete schema.$id;
    delete schema.$schema;
    // Its members were lifted into components by title; the local copies are no longer referenced.
    delete schema.$defs;
  }
  return document;
}
