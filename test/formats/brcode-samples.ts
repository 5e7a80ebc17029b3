/** BR Codes of chosen lengths, shared by the parser tests and the command-line tests. */
import { crc16 } from '../../src/formats/brcode.js';

/** EMV QRCPS Merchant-Presented Mode limits a payload to 512 characters; written out so a change of the constant shows in the tests. */
export const emvMaximum = 512;

export const tlv = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;

/**
 * A valid static code of exactly `total` characters (at least 136): the Pix fields, then unreserved
 * templates (81, 82, …, which a reader skips) filling the rest, then the CRC.
 */
export function codeOfLength(total: number): string {
  let body = `000201${tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', 'financeiro@padaria.com.br') + tlv('02', 'Pedido 123'))}${tlv('52', '0000')}${tlv('53', '986')}${tlv('54', '10.50')}${tlv('58', 'BR')}${tlv('59', 'PADARIA PAO QUENTE')}${tlv('60', 'SAO PAULO')}${tlv('62', tlv('05', 'PEDIDO123'))}`;
  for (let id = 81; total - 8 - body.length > 0; id += 1) {
    const room = total - 8 - body.length - 4;
    // Leave at least 5 characters for the next template when this one cannot take all that is left.
    body += tlv(String(id), 'P'.repeat(room > 99 ? Math.min(99, room - 5) : room));
  }
  body += '6304';
  const code = body + crc16(body);
  if (code.length !== total) throw new Error(`cannot make a code of ${total} characters`);
  return code;
}

/** 128 empty fields 00, all but the first repeated: hundreds of problems within the length limit. */
export const garbledCode = '0000'.repeat(emvMaximum / 4);
