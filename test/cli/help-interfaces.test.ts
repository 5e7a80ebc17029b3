/**
 * The help of `contrato` lists the interfaces from their definitions: each document's name and mock offset,
 * its prefix at the sandbox, and every credential the sandbox seeds — never a list written a second time.
 */
import { describe, expect, it } from 'vitest';
import { commandHelp, findCommand } from '../../src/cli/arguments.js';
import { commands } from '../../src/cli/commands.js';
import { defaultBasePort } from '../../src/cli/ports.js';
import { interfaces } from '../../src/interfaces.js';
import { sandboxCredentialsOf, sandboxSecret } from '../../src/runtime/definition.js';
import { definitions } from '../helpers/interfaces.js';

const help = (name: string): string => commandHelp(findCommand(commands, name as never));

describe('the help names what the definitions declare', () => {
  it.each(interfaces.map((info) => [info.name, info] as const))('%s: its name, its mock offset and its sandbox prefix', (name, info) => {
    expect(help('mock')).toContain(`interfaces: ${interfaces.map((each) => each.name).join(', ')}`);
    expect(help('mock')).toMatch(new RegExp(`${name} (<n>)?\\+${info.mockPort - defaultBasePort}[,)]`));
    expect(help('sandbox')).toMatch(new RegExp(`prefix: [^;]*${info.sandboxPrefix.replace(/\//g, '\\/')}[,;]`));
  });

  it.each(definitions.map((definition) => [definition.name, definition] as const))(
    '%s: every credential the sandbox seeds for it',
    (_name, definition) => {
      for (const { clientId } of sandboxCredentialsOf(definition))
        expect(help('sandbox')).toMatch(new RegExp(`Credentials it knows: [^\\n]*\\b${clientId}[,\\s]`));
      expect(help('sandbox')).toContain(`each with the secret ${sandboxSecret}`);
    },
  );
});
