/**
 * contrato/formats: Brazilian identifiers, Pix ids and keys, amounts, boleto codes and BR Codes, each a
 * pure function that says why a value is wrong. The same functions back `format: <name>` in the specs.
 */
export type { FormatResult } from './result.js';
export { checkCnpj, checkCpf, cnpjCheckDigits } from './documents.js';
export {
  checkEndToEndId,
  checkEvp,
  checkIdRec,
  checkIspb,
  checkPhone,
  checkPixEmail,
  checkPixKey,
  checkTxid,
  detectPixKeyType,
  generateEndToEndId,
  generateIdRec,
  generateTxid,
  pixKeyTypes,
  type EndToEndIdOptions,
  type IdRecOptions,
  type PixKeyType,
} from './pix.js';
export { checkBrlAmount, checkDecimal, checkIbgeMunicipality, checkIpv4OrCidr } from './values.js';
export {
  barcodeOfDigitableLine,
  digitableLineOfBarcode,
  checkBoletoBarcode,
  checkBoletoLine,
  checkConvenioLine,
  modulo10,
  modulo11Bank,
  modulo11Collection,
} from './boleto.js';
export {
  buildBrCode,
  checkBrCode,
  crc16,
  describeBrCodeIssue,
  maxBrCodeIssues,
  maxBrCodeLength,
  omittedBrCodeIssues,
  parseBrCode,
  type BrCode,
  type BrCodeIssue,
  type BrCodeResult,
  type DynamicBrCodeOptions,
  type StaticBrCodeOptions,
} from './brcode.js';
export { ajvFormats, checkFormat, formats, isFormatName, type FormatDefinition, type FormatName } from './registry.js';
export {
  brCodeQrMatrix,
  renderBrCodePng,
  renderBrCodeSvg,
  renderBrCodeTerminal,
  type BrCodePngOptions,
  type BrCodeQrErrorCorrection,
  type BrCodeQrOptions,
} from './qr.js';
