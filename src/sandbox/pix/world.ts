/** The Pix sandbox as `GET /_sandbox` lists it: the receiving user and the keys a charge may name. */
import type { PixState } from './state.js';

export function pixWorld(state: PixState): Record<string, unknown> {
  const { receiver } = state;
  return {
    receiver: { ispb: receiver.ispb, name: receiver.name, city: receiver.city },
    keys: [...receiver.keys],
    charges: Object.keys(state.charges).length,
  };
}
