/** A fee rule of the core banking API (interface D) as the platform answers it: valid against FeeRule. */
export const feeRule = {
  id: '0e3ec47e-2fc8-4c4c-bdee-0eb80eb91a50',
  baasId: '8313d412-4f4b-4f33-8f97-e1a279e8f514',
  name: 'Tarifa Pix',
  percent: 0.99,
  fixedAmount: 0,
  minAmount: 0.5,
  maxAmount: 15,
  weight: 1,
  effectiveDate: null,
  requirements: [],
  createdAt: '2026-01-10T12:00:00Z',
  updatedAt: '2026-01-10T12:00:00Z',
} as const;
