/**
 * The format table the generated validators use at run time: ajv-formats' standard formats (uuid,
 * date-time, email, ...) and contrato's own. Generated validators import it, so a spec that says
 * `format: cpf` is checked by the very function `contrato format cpf` runs.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { ajvFormats } from './registry.js';

export const validatorFormats = { ...fullFormats, ...ajvFormats };
