import { SqliteAdapter, sql, type Kysely } from 'kysely';

type Json = Record<string, unknown>;

/**
 * The ExplanationOfBenefit searches a resource can match by more than one value
 * (docs/decisions.md#fhir-search):
 *
 * - `fhir_search_tokens`: the EOB's identifiers (`identifier`, `system|value`);
 * - `fhir_search_dates`: the days of each `service-start-date` value (billable period start, each line's
 *   service date or period start) and of `billable-period-start`, a partial date as the days it spans.
 *
 * A search filters with `exists` on them, so the page and its `total` stay exact. Each is nothing but its
 * key, so on SQLite it is that key alone (one B-tree).
 *
 * Upgrade: every stored EOB gets its rows and its `service_date` moves to the billable period's end (the
 * claim's through date, as Blue Button's backend filters `service-date`; the start when there is no end).
 * The rules are written out here as they stand today (fhir/validate.ts `eobSearchFacts` writes them on
 * import), since a migration must not change when the code does; a date that cannot be read is left out.
 * The SAMHSA marks of EOBs stored before are not computed here (the code lists are the application's):
 * importing them again sets them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const indexOnly = db.getExecutor().adapter instanceof SqliteAdapter ? sql`without rowid` : sql``;
  await db.schema
    .createTable('fhir_search_tokens')
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('param', 'text', (c) => c.notNull())
    .addColumn('system', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('fhir_search_tokens_pk', ['resource_type', 'id', 'param', 'system', 'value'])
    .modifyEnd(indexOnly)
    .execute();
  await db.schema
    .createTable('fhir_search_dates')
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('param', 'text', (c) => c.notNull())
    .addColumn('first_day', 'text', (c) => c.notNull())
    .addColumn('last_day', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('fhir_search_dates_pk', [
      'resource_type',
      'id',
      'param',
      'first_day',
      'last_day',
    ])
    .modifyEnd(indexOnly)
    .execute();
  await backfill(db as Kysely<Tables>);
}

interface Tables {
  fhir_resources: {
    resource_type: string;
    id: string;
    service_date: string | null;
    body: string;
  };
  fhir_search_tokens: { resource_type: string; id: string; param: string; system: string; value: string };
  fhir_search_dates: {
    resource_type: string;
    id: string;
    param: string;
    first_day: string;
    last_day: string;
  };
}

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/;

const leap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The days a FHIR date or dateTime spans (a year, a month or its own date), or undefined if it cannot be. */
function daysOf(value: unknown): { first_day: string; last_day: string } | undefined {
  const m = typeof value === 'string' ? DATE.exec(value) : null;
  if (!m) return undefined;
  const [, year, month, date] = m as unknown as [string, string, string | undefined, string | undefined];
  if (Number(year) < 1) return undefined;
  if (month === undefined) return { first_day: `${year}-01-01`, last_day: `${year}-12-31` };
  const monthNumber = Number(month);
  if (monthNumber < 1 || monthNumber > 12) return undefined;
  const last = MONTH_DAYS[monthNumber - 1]! + (monthNumber === 2 && leap(Number(year)) ? 1 : 0);
  if (date === undefined) return { first_day: `${year}-${month}-01`, last_day: `${year}-${month}-${last}` };
  if (Number(date) < 1 || Number(date) > last) return undefined;
  return { first_day: `${year}-${month}-${date}`, last_day: `${year}-${month}-${date}` };
}

const list = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((v): v is Json => typeof v === 'object' && v !== null) : [];

/** An EOB's rows and service date, by the rules of fhir/validate.ts `eobSearchFacts` at this migration. */
function factsOf(id: string, eob: Json) {
  const type = 'ExplanationOfBenefit';
  const period = (eob.billablePeriod ?? {}) as Json;
  const tokens = list(eob.identifier).flatMap((identifier) =>
    typeof identifier.value === 'string'
      ? [
          {
            resource_type: type,
            id,
            param: 'identifier',
            system: typeof identifier.system === 'string' ? identifier.system : '',
            value: identifier.value,
          },
        ]
      : [],
  );
  const start = daysOf(period.start);
  const starts = [
    start,
    ...list(eob.item).flatMap((item) => [
      daysOf(item.servicedDate),
      daysOf((item.servicedPeriod as Json | undefined)?.start),
    ]),
  ].filter((d) => d !== undefined);
  const distinct = new Map(starts.map((d) => [`${d.first_day} ${d.last_day}`, d]));
  const dates = [
    ...(start ? [{ resource_type: type, id, param: 'billable-period-start', ...start }] : []),
    ...[...distinct.values()].map((d) => ({ resource_type: type, id, param: 'service-start-date', ...d })),
  ];
  const through = typeof period.end === 'string' && daysOf(period.end) ? period.end : period.start;
  return { tokens, dates, serviceDate: typeof through === 'string' ? through.slice(0, 10) : null };
}

/** The stored EOBs' facts, 500 at a time in id order. */
async function backfill(db: Kysely<Tables>): Promise<void> {
  const type = 'ExplanationOfBenefit';
  let after = '';
  for (;;) {
    const rows = await db
      .selectFrom('fhir_resources')
      .select(['id', 'body'])
      .where('resource_type', '=', type)
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    const tokens: Tables['fhir_search_tokens'][] = [];
    const dates: Tables['fhir_search_dates'][] = [];
    for (const { id, body } of rows) {
      const facts = factsOf(id, JSON.parse(body) as Json);
      await db
        .updateTable('fhir_resources')
        .set({ service_date: facts.serviceDate })
        .where('resource_type', '=', type)
        .where('id', '=', id)
        .execute();
      tokens.push(...facts.tokens);
      dates.push(...facts.dates);
    }
    for (let i = 0; i < tokens.length; i += 1000) {
      await db
        .insertInto('fhir_search_tokens')
        .values(tokens.slice(i, i + 1000))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    for (let i = 0; i < dates.length; i += 1000) {
      await db
        .insertInto('fhir_search_dates')
        .values(dates.slice(i, i + 1000))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}
