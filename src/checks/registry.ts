/**
 * Where the CLI finds each document's generated modules: from the interface definitions. A CLI name is a
 * document (`pix-location`) or an interface, whose documents are seen as one (`pix` validates the API
 * and its payload locations).
 */
import { fileURLToPath } from 'node:url';
import { findDefinition, findInterface } from '../interfaces.js';
import { type DocumentModules, mergedModules } from '../runtime/definition.js';
import { ConfigurationError } from '../runtime/errors.js';

export type InterfaceModules = DocumentModules;

export async function loadInterface(name: string): Promise<InterfaceModules> {
  const definition = findDefinition(name);
  if (definition) return mergedModules(await Promise.all(definition.documents.map((document) => document.load())));
  const document = findInterface(name);
  if (!document) throw new ConfigurationError(`unknown interface ${name}`);
  return document.load();
}

/** The bundled OpenAPI document of an interface (input of Prism and of the docs). */
export function bundledSpecPath(name: string): string {
  return fileURLToPath(new URL(`../../generated/${name}/openapi.json`, import.meta.url));
}
