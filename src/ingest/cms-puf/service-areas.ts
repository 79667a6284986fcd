import { write, type Write } from '../engine/writes.js';
import { SERVICE_AREA_COLUMNS } from '../../plans/tables/puf-columns.js';
import { Reject, missingFrom, requiredColumns, type TabularFormat } from '../engine/tabular-format.js';
import { stateOfFips, FIPS_COUNTY } from '../geography/codes.js';
import { firstReject, yesNo } from './values.js';
import { issuerRows, type RowIssuer } from './issuer-rows.js';
import { cell, marketOf } from './puf-cells.js';

const REQUIRED = requiredColumns(SERVICE_AREA_COLUMNS, [
  'SourceName',
  'ImportDate',
  'PartialCountyJustification',
]);

const SERVICE_AREA_ID = /^([A-Z]{2})S\d{3}$/;

/**
 * ZipCodes of a partial county as the PUF writes them ("49070, 49311, …") → "49070,49311". ZIP+4
 * entries keep their five-digit ZIP; anything else is a Reject.
 */
export function zipList(value: string): string | Reject {
  const zips: string[] = [];
  for (const token of value.split(/[\s,;]+/)) {
    if (token === '') continue;
    const zip = /^(\d{5})(?:-\d{4})?$/.exec(token);
    if (!zip) return new Reject(`ZipCodes "${token}" is not a 5-digit ZIP code`);
    if (!zips.includes(zip[1]!)) zips.push(zip[1]!);
  }
  return zips.join(',');
}

/** One Service Area PUF row: a county (whole, or some of its ZIPs) or a whole state of a service area. */
function serviceAreaRow(cells: Record<string, string>, year: number, issuer: RowIssuer): Write[] | Reject {
  const { issuerId, state } = issuer;
  const serviceAreaId = cell(cells, 'ServiceAreaId');
  const area = SERVICE_AREA_ID.exec(serviceAreaId);
  if (!area) return new Reject(`ServiceAreaId "${serviceAreaId}" is not a service area id like TXS001`);
  if (area[1] !== state)
    return new Reject(`ServiceAreaId ${serviceAreaId} is not a service area of ${state}`);
  const market = marketOf(cells);
  const dental = yesNo(cells, 'DentalOnlyPlan');
  const entireState = yesNo(cells, 'CoverEntireState');
  const partial = yesNo(cells, 'PartialCounty');
  const bad = firstReject(market, dental, entireState, partial);
  if (bad) return bad;

  let fips = '';
  let zips = '';
  if (entireState === 0) {
    fips = cell(cells, 'County');
    if (!FIPS_COUNTY.test(fips)) return new Reject(`County "${fips}" is not a 5-digit county FIPS code`);
    if (stateOfFips(fips.slice(0, 2)) !== state) {
      return new Reject(`County ${fips} is not a county of ${state}`);
    }
    if (partial === 1) {
      const list = zipList(cell(cells, 'ZipCodes'));
      if (list instanceof Reject) return list;
      if (list === '') return new Reject(`County ${fips} is a partial county without ZipCodes`);
      zips = list;
    }
  }
  return [
    write('service_areas', {
      year,
      state,
      issuer_id: issuerId,
      service_area_id: serviceAreaId,
      name: cell(cells, 'ServiceAreaName'),
      cover_entire_state: entireState as number,
      fips,
      partial_county: entireState === 0 ? (partial as number) : 0,
      zips,
      market: market as string,
      dental_only: dental as number,
    }),
  ];
}

/**
 * CMS Service Area PUF: which counties (whole, or the listed ZIPs of a partial county) or whole states
 * each issuer's service area covers, per market. Year: BusinessYear.
 */
export const serviceAreasFormat: TabularFormat = {
  kind: 'service-areas',
  summary: 'CMS Service Area PUF (service-area-puf.csv): counties and ZIPs of each issuer service area',
  owns: [{ table: 'service_areas', scope: 'year' }],
  missingColumns: (header) => missingFrom(header, REQUIRED),
  start: () => issuerRows(serviceAreaRow),
};
