import { Type, type TLiteral, type TSchemaOptions, type TUnion } from 'typebox';

/**
 * Request inputs the plan API shares (its routes, and the request types of household/, search/ and quote/),
 * with the formats the CMS document gives them.
 */

type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K]> };

/**
 * `Type.Union` of one `Type.Literal` per value (`anyOf` of `const`s), typed as the union of the values: a
 * list of codes written once gives both the schema and, through `Static`, its TypeScript type. (`map` loses
 * the tuple's element types, hence the one assertion here.)
 */
export function literalUnion<const T extends readonly string[]>(
  values: T,
  options?: TSchemaOptions,
): TUnion<Literals<T>> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  ) as TUnion<Literals<T>>;
}

export const Year = Type.Integer({ minimum: 1000, maximum: 9999, description: '4-digit market year' });

export const YearQuery = Type.Object({
  year: Type.Optional(
    Type.Integer({
      minimum: 1000,
      maximum: 9999,
      description: '4-digit market year; defaults to the current market year (the latest with plans loaded)',
    }),
  ),
});

export const StateCode = Type.String({
  pattern: '^[A-Z]{2}$',
  description: '2-letter USPS state abbreviation, upper case',
});

export const CountyFips = Type.String({ pattern: '^[0-9]{5}$', description: '5-digit county FIPS code' });

export const ZipCode = Type.String({ pattern: '^[0-9]{5}$', description: '5-digit ZIP code' });

export const PlanId = Type.String({
  pattern: '^[0-9]{5}[A-Z]{2}[0-9]{7}$',
  description: '14-character HIOS plan id (standard component id), e.g. 11512NC0100031',
});

export const IssuerId = Type.String({ pattern: '^[0-9]{5}$', description: '5-digit HIOS issuer id' });
