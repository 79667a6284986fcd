import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ingest, sharedData, skipWithoutSharedData } from '../../helpers/shared-data.js';
import { failedIngest, ingestSuite, rejectLines } from '../../helpers/ingest-suite.js';

const FILE = 'marketplace_puf/legacy_2014/Network_PUF_2014.csv';
const suite = ingestSuite('networks');

const network = (year: number, issuerId: string, networkId: string) =>
  suite.storage.db
    .selectFrom('networks')
    .selectAll()
    .where('year', '=', year)
    .where('issuer_id', '=', issuerId)
    .where('network_id', '=', networkId)
    .executeTakeFirstOrThrow();

const realFile = skipWithoutSharedData(FILE);

describe('networks: the real PY2014 Network PUF', { skip: realFile }, () => {
  it('stores one row per issuer network: 937 rows, 764 networks', async () => {
    const summary = await ingest(suite.storage, 'networks', [sharedData(FILE)]);
    assert.equal(summary.read, 937);
    assert.equal(summary.rejectedCount, 0);
    assert.deepEqual(summary.years, [2014]);
    assert.equal(await suite.count('networks', 2014), 764);
  });

  it('keeps names and URLs as written, the individual market’s row first', async () => {
    const heritage = await network(2014, '38344', 'AKN001');
    assert.equal(heritage.state, 'AK');
    assert.equal(heritage.name, 'HeritagePlus');
    assert.equal(heritage.url, 'https://www.premera.com/wa/visitor/');
    const moda = await network(2014, '21989', 'AKN001');
    assert.equal(moda.name, 'ODS Premier');
    assert.equal(moda.url, 'https://www.modahealth.com/ProviderSearch/faces/webpages/home.xhtml?dn=ods');
  });

  it('re-running replaces the year', async () => {
    await ingest(suite.storage, 'networks', [sharedData(FILE)]);
    assert.equal(await suite.count('networks', 2014), 764);
  });
});

// Lines of the PY2026 Network PUF as CMS publishes it (an empty NetworkURL happens).
const CURRENT = [
  'BusinessYear,StateCode,IssuerId,SourceName,ImportDate,NetworkName,NetworkId,NetworkURL,MarketCoverage,DentalOnlyPlan',
  '2026,AK,21989,HIOS,2025-10-15,Delta Dental Premier,AKN001,,SHOP (Small Group),Yes',
  '2026,AK,21989,HIOS,2025-10-15,Delta Dental Premier - Individual,AKN003,https://www.deltadentalak.com/member/online-tools/find-a-provider,Individual,Yes',
  '2026,FL,44228,HIOS,2025-10-28,"Wellpoint Florida Essential, Dental Prime, and RX Choice Tiered Network",FLN003,https://www.wellpoint.com/find-care/?alphaprefix=3323,Individual,No',
];

describe('networks: the current layout', () => {
  it('reads quoted names and empty URLs', async () => {
    const summary = await ingest(suite.storage, 'networks', [
      suite.file('network-puf.csv', CURRENT.join('\n')),
    ]);
    assert.equal(summary.rejectedCount, 0);
    assert.equal(await suite.count('networks', 2026), 3);
    assert.equal((await network(2026, '21989', 'AKN001')).url, '');
    assert.equal(
      (await network(2026, '44228', 'FLN003')).name,
      'Wellpoint Florida Essential, Dental Prime, and RX Choice Tiered Network',
    );
  });

  it('fails on a bad network id with file:line and keeps the previous data', async () => {
    const lines = [
      ...CURRENT,
      '2026,AK,21989,HIOS,2025-10-15,Broken,AK001,,Individual,Yes',
      '2026,AK,2198,HIOS,x,Y,AKN009,,Individual,No',
    ];
    const file = suite.file('bad-network.csv', lines.join('\n'));
    const error = await failedIngest(suite.storage, 'networks', [file]);
    assert.deepEqual(rejectLines(error.summary), [
      'bad-network.csv:5: NetworkId "AK001" is not a network id like TXN001',
      'bad-network.csv:6: IssuerId "2198" is not a 5-digit HIOS issuer id',
    ]);
    assert.equal(await suite.count('networks', 2026), 3);
    await ingest(suite.storage, 'networks', [file], { allowRejects: 2 });
    assert.equal(await suite.count('networks', 2026), 3);
  });

  it('refuses a file without NetworkURL', async () => {
    const file = suite.file('no-url.csv', CURRENT.map((l) => l.split(',').slice(0, 7).join(',')).join('\n'));
    const error = await failedIngest(suite.storage, 'networks', [file]);
    assert.match(error.message, /missing column "NetworkURL"/);
  });
});
