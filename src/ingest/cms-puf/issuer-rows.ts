import { Reject, type RowHandler, yearCell } from '../engine/tabular-format.js';
import { issuerAndState } from './puf-cells.js';

/** The issuer a PUF row belongs to, and its state. */
export interface RowIssuer {
  issuerId: string;
  state: string;
}

type Cells = Record<string, string>;

/**
 * The row handler of a CMS Exchange PUF whose every row is one issuer's in one state, with its year in
 * BusinessYear (Plan Attributes, Service Area, Rate, Benefits and Cost Sharing, Network, Business Rules):
 * IssuerId and StateCode are checked before `row` sees them.
 */
export function issuerRows(
  row: (cells: Cells, year: number, issuer: RowIssuer) => ReturnType<RowHandler['row']>,
  finish?: RowHandler['finish'],
): RowHandler {
  return {
    yearOf: (cells) => yearCell(cells, 'BusinessYear'),
    row(cells, year) {
      const issuer = issuerAndState(cells);
      return issuer instanceof Reject ? issuer : row(cells, year, issuer);
    },
    finish,
  };
}

/**
 * A Reject when HIOS plan id `planId` (read from `column`) is not a plan of the row's issuer in its
 * state: a HIOS plan id begins with the 5-digit issuer id and then the state code.
 */
export function notAPlanOf(issuer: RowIssuer, column: string, planId: string): Reject | undefined {
  if (planId.slice(0, 5) === issuer.issuerId && planId.slice(5, 7) === issuer.state) return undefined;
  return new Reject(`${column} ${planId} is not a plan of issuer ${issuer.issuerId} in ${issuer.state}`);
}

/**
 * A Reject when plan variant `variant` (PlanId) is not a variant of `plan` (StandardComponentId), or that
 * plan not one of the row's issuer in its state: a variant id is its plan's id, a hyphen and the variant.
 */
export function notAVariantOf(issuer: RowIssuer, plan: string, variant: string): Reject | undefined {
  if (variant.slice(0, 14) !== plan) return new Reject(`PlanId ${variant} is not a variant of ${plan}`);
  return notAPlanOf(issuer, 'StandardComponentId', plan);
}
