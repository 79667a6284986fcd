import { Type } from 'typebox';
import type { ProcedureCost } from '../store/prices.js';

/** Every error body of the price lookup (the CMS document's gateway and route answers alike). */
const Message = Type.Object({ message: Type.String() });

export const errors = {
  400: Message,
  401: Message,
  403: Message,
  404: Message,
  429: Message,
};

export const Code = Type.Object({
  code: Type.String({ description: 'HCPCS Level II or CPT code' }),
  description: Type.String(),
  frequency: Type.Integer({
    description:
      "how often the procedure is performed (the operator's procedure list); 0 when none is loaded",
  }),
});

export const Cost = Type.Object({
  code: Type.String({
    description: 'the procedure (added: the CMS document omits it, so bulk items could not be told apart)',
  }),
  facilityType: Type.String({
    description: '`HOPD` (hospital outpatient department, OPPS) or `ASC` (ambulatory surgical center)',
  }),
  cost: Type.Number({ description: 'what Medicare pays: `total − copay`, dollars' }),
  copay: Type.Number({ description: "the beneficiary's national copayment, dollars" }),
  total: Type.Number({ description: 'the national payment rate, dollars' }),
});

export const CodeParam = Type.Object({
  code: Type.String({ description: 'a 5-character HCPCS Level II or CPT code' }),
});
export const Limit = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 100_000, description: 'at most this many items' }),
);

const dollars = (cents: number) => cents / 100;

/** A stored cost as the `Cost` schema gives it: dollars, and what Medicare pays beside the total. */
export function costShape(cost: ProcedureCost) {
  return {
    code: cost.code,
    facilityType: cost.facilityType,
    cost: dollars(cost.totalCents - cost.copayCents),
    copay: dollars(cost.copayCents),
    total: dollars(cost.totalCents),
  };
}
