import { Type } from 'typebox';
import { Coverage } from './drug-shapes.js';

/** Provider answers, as the CMS document defines them (definitions/Provider, NearbyProvider, …). */

/** String enums (see `Coverage`). */
const Accepting = Type.Unsafe<'accepting' | 'not accepting' | 'accepting in some locations' | 'unknown'>({
  type: 'string',
  enum: ['accepting', 'not accepting', 'accepting in some locations', 'unknown'],
  description: "from the issuers' files; unknown when none says",
});

export const Provider = Type.Object({
  name: Type.String(),
  gender: Type.Optional(Type.String()),
  specialties: Type.Array(Type.String(), {
    description: "NUCC names of the NPPES taxonomies, and the issuers' own specialties",
  }),
  type: Type.Unsafe<'Individual' | 'Facility'>({ type: 'string', enum: ['Individual', 'Facility'] }),
  accepting: Accepting,
  npi: Type.String({ pattern: '^[0-9]{10}$' }),
  languages: Type.Array(Type.String()),
  facility_types: Type.Array(Type.String()),
  taxonomy: Type.Optional(Type.String({ description: 'primary NPPES taxonomy (NUCC name, else its code)' })),
});

export const Address = Type.Object({
  street_1: Type.String(),
  street_2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  zipcode: Type.String(),
  countyfips: Type.Optional(Type.String({ description: '5-digit county FIPS code of the ZIP' })),
});

export const NearbyProvider = Type.Object({
  provider: Provider,
  address: Type.Optional(Address),
  distance: Type.Number({ minimum: 0, description: "miles from the ZIP's point to the provider's ZIP's" }),
});

export const ProviderCoverage = Type.Object({
  npi: Type.String(),
  plan_id: Type.String(),
  coverage: Coverage,
  addresses: Type.Array(Address, { description: "where the plan's issuer lists the provider" }),
  accepting: Accepting,
});
