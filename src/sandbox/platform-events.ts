/**
 * The typed channel between the sandbox's modules, so that the four interfaces behave as one platform: a
 * module announces what happened on its side (`env.announce`), and every module that listens for that kind
 * (`SandboxModule.listens`) acts on its own state. No module reads or writes another's state to do it.
 *
 * Events carry plain data (amounts in cents, instants as RFC 3339 text): a listener needs nothing more.
 */

/** The holder of the account a Pix is paid into: its institution and document (CPF or CNPJ, digits only). */
export interface PixReceiver {
  readonly ispb: string;
  readonly document: string;
  readonly name: string;
}

/** The payer of a Pix, as far as the Pix module knows it (a charge's `devedor`, when it names one). */
export interface PixPayer {
  readonly ispb: string;
  readonly document: string | null;
  readonly name: string | null;
}

/** A Pix was received (a charge paid, a recurring charge settled): the receiver's account is credited. */
export interface PixReceived {
  readonly kind: 'pix.received';
  readonly endToEndId: string;
  readonly txid: string | null;
  /** The receiver's key the Pix was paid to. */
  readonly key: string | null;
  readonly cents: number;
  /** When it was settled (the Pix's `horario`). */
  readonly at: string;
  readonly receiver: PixReceiver;
  readonly payer: PixPayer;
  /** The payer's message (`infoPagador`). */
  readonly message: string | null;
}

/** A refund (devolução) of a Pix received was asked (EM_PROCESSAMENTO) or settled (DEVOLVIDO). */
export interface PixRefund {
  readonly kind: 'pix.refund';
  readonly status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO';
  /** The Pix refunded. */
  readonly endToEndId: string;
  /** The refund's own end-to-end id (`rtrId`). */
  readonly returnId: string;
  readonly cents: number;
  readonly receiver: PixReceiver;
  readonly description: string | null;
  readonly at: string;
}

export type PlatformEvent = PixReceived | PixRefund;

export type PlatformEventKind = PlatformEvent['kind'];
