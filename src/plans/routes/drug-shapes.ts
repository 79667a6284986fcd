import { Type } from 'typebox';

/** Drug answers, as the CMS document defines them (definitions/Drug, DrugCoverage, Coverage). */

export const RxCui = Type.String({ pattern: '^[0-9]{1,10}$', description: 'RxNorm concept id (RxCUI)' });

export const Drug = Type.Object({
  id: Type.String({ description: 'drug id (the RxCUI)' }),
  name: Type.String({ description: 'normalized SAB=RXNORM name' }),
  rxcui: RxCui,
  strength: Type.Optional(Type.String({ description: 'RXN_AVAILABLE_STRENGTH, else read from the name' })),
  route: Type.Optional(Type.String({ description: 'route, from the RxNorm dose form' })),
  full_name: Type.Optional(Type.String({ description: 'the prescribable name (PSN), else the name' })),
  rxterms_dose_form: Type.Optional(Type.String()),
  rxnorm_dose_form: Type.Optional(Type.String({ description: 'RxNorm dose form (has_dose_form)' })),
});

/**
 * A string enum, not a union of literals: the answer serialiser checks each branch of a union per value,
 * and a coverage answer holds a thousand of them.
 */
export const Coverage = Type.Unsafe<'Covered' | 'NotCovered' | 'DataNotProvided' | 'GenericCovered'>({
  type: 'string',
  enum: ['Covered', 'NotCovered', 'DataNotProvided', 'GenericCovered'],
  description: 'DataNotProvided: the issuer published no data for the plan (unknown, not "not covered")',
});

export const DrugCoverage = Type.Object({
  rxcui: RxCui,
  plan_id: Type.String(),
  coverage: Coverage,
  generic_rxcui: Type.Optional(Type.String({ description: 'the covered generic, with GenericCovered' })),
});
