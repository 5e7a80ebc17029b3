/**
 * Where the CLI finds each interface's generated modules. Static import() calls, one per interface,
 * so a bundler keeps them apart and the CLI loads only the interface it is asked about.
 */
import { fileURLToPath } from 'node:url';
import type { OperationInfo } from '../../generated/operation-types.js';
import type { InterfaceName } from '../interfaces.js';
import type { CrossFieldChecks } from '../rules/cross-field.js';
import type { OperationValidatorSet } from '../runtime/runtime.js';
import type { CompiledValidator } from '../runtime/validation.js';

export interface InterfaceModules {
  readonly operationTable: Readonly<Record<string, OperationInfo>>;
  readonly patternDescriptions: Readonly<Record<string, string>>;
  readonly crossFieldChecks: CrossFieldChecks;
  readonly validators: {
    readonly schemas: Readonly<Record<string, CompiledValidator>>;
    readonly operations: Readonly<Record<string, OperationValidatorSet>>;
  };
}

const loaders: Record<InterfaceName, () => Promise<InterfaceModules>> = {
  'core-banking': async () => {
    const [operations, validators, checks] = await Promise.all([
      import('../../generated/core-banking/operations.js'),
      import('../../generated/core-banking/validators.js'),
      import('../core-banking/checks.js'),
    ]);
    return {
      operationTable: operations.operationTable,
      validators: validators.validators as InterfaceModules['validators'],
      patternDescriptions: validators.patternDescriptions,
      crossFieldChecks: checks.coreBankingChecks,
    };
  },
};

export function loadInterface(name: InterfaceName): Promise<InterfaceModules> {
  return loaders[name]();
}

/** The bundled OpenAPI document of an interface (input of Prism and of the docs). */
export function bundledSpecPath(name: InterfaceName): string {
  return fileURLToPath(new URL(`../../generated/${name}/openapi.json`, import.meta.url));
}
