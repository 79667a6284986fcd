import { write, type Write } from '../engine/writes.js';
import { Reject, missingFrom, type TabularFormat } from '../engine/tabular-format.js';
import { issuerRows } from './issuer-rows.js';
import { Preferred, cell, marketOf, marketRank } from './puf-cells.js';

const REQUIRED = ['BusinessYear', 'StateCode', 'IssuerId', 'NetworkName', 'NetworkId', 'NetworkURL'];

const NETWORK_ID = /^([A-Z]{2})N\d{3}$/;

/**
 * CMS Network PUF: each issuer's provider networks with their names and directory URLs (the plan's
 * `network_url`). URLs are kept as written (early files omit the scheme). Year: BusinessYear.
 */
export const networksFormat: TabularFormat<Preferred<Write>> = {
  kind: 'networks',
  summary: 'CMS Network PUF (network-puf.csv): provider network names and directory URLs',
  owns: [{ table: 'networks', scope: 'year' }],
  missingColumns: (header) => missingFrom(header, REQUIRED),
  // A network listed once per market keeps one row (see marketRank), across the files of a load.
  startLoad: () => new Preferred(),
  start({ load: networks }) {
    return issuerRows(
      (cells, year, ids) => {
        const networkId = cell(cells, 'NetworkId');
        const id = NETWORK_ID.exec(networkId);
        if (!id) return new Reject(`NetworkId "${networkId}" is not a network id like TXN001`);
        if (id[1] !== ids.state) return new Reject(`NetworkId ${networkId} is not a network of ${ids.state}`);
        const name = cell(cells, 'NetworkName');
        if (name === '') return new Reject('NetworkName is empty');
        const market = marketOf(cells, true);
        if (market instanceof Reject) return market;
        networks.offer(`${year}|${ids.issuerId}|${networkId}`, marketRank(market), () =>
          write('networks', {
            year,
            issuer_id: ids.issuerId,
            network_id: networkId,
            state: ids.state,
            name,
            url: cell(cells, 'NetworkURL'),
          }),
        );
        return [];
      },
      () => networks.take(),
    );
  },
};
