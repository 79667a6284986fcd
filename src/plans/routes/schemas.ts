import { Type } from 'typebox';

/** The plan API's error body: four strings (docs/decisions.md#plan-errors). */
export const PlanError = Type.Object({
  code: Type.String({ description: 'application error code, 1000–1017' }),
  status: Type.String({ description: 'HTTP status as text' }),
  message: Type.String(),
  error: Type.String({ description: 'what went wrong, or what to fix' }),
});

/** The gateway's bodies (401 missing/invalid key, 429 over the limit). */
export const GatewayMessage = Type.Object({ message: Type.String() });

/** Error responses every plan-API route can give. */
export const errorResponses = {
  400: PlanError,
  401: GatewayMessage,
  404: PlanError,
  429: GatewayMessage,
  500: PlanError,
};
