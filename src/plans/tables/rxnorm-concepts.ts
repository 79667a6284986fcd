/**
 * Real RxNorm concepts (NLM RxNorm, SAB=RXNORM: RxCUI, name and term type as RxNorm publishes them; free of
 * UMLS license restrictions) that back the generated sample formulary, so the zero-setup start answers
 * drug questions with real drug names and ids. The RxCUIs and names are those of common drugs used by
 * Synthea's medication list (synthetichealth/synthea, Apache-2.0) and the CMS MR-PUF example formulary;
 * `generic` is RxNorm's tradename_of relation (a branded drug → its clinical drug). Verify any single
 * code against RxNav before relying on it; `ingest rxnorm` loads the full release over these.
 */
export interface RxnormConcept {
  rxcui: string;
  name: string;
  tty: 'SCD' | 'SBD';
  generic?: string;
}

// prettier-ignore
export const RXNORM_CONCEPTS: readonly RxnormConcept[] = [
  { rxcui: '198440', name: 'Acetaminophen 500 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '209459', name: 'acetaminophen 500 MG Oral Tablet [Tylenol]', tty: 'SBD', generic: '198440' },
  { rxcui: '313782', name: 'Acetaminophen 325 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '1049221', name: 'Acetaminophen 325 MG / oxyCODONE Hydrochloride 5 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '1049640', name: 'acetaminophen 325 MG / oxycodone hydrochloride 5 MG Oral Tablet [Percocet]', tty: 'SBD', generic: '1049221' },
  { rxcui: '248656', name: 'azithromycin 500 MG Oral Tablet [Zithromax]', tty: 'SBD' },
  { rxcui: '198405', name: 'Ibuprofen 100 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '310965', name: 'Ibuprofen 200 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '198014', name: 'Naproxen 500 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '308192', name: 'Amoxicillin 500 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '308182', name: 'Amoxicillin 250 MG Oral Capsule', tty: 'SCD' },
  { rxcui: '562251', name: 'Amoxicillin 250 MG / Clavulanate 125 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '860975', name: '24 HR Metformin hydrochloride 500 MG Extended Release Oral Tablet', tty: 'SCD' },
  { rxcui: '314076', name: 'lisinopril 10 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '979485', name: 'Losartan Potassium 25 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '197361', name: 'Amlodipine 5 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '308136', name: 'amLODIPine 2.5 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '310798', name: 'Hydrochlorothiazide 25 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '259255', name: 'Atorvastatin 80 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '312961', name: 'Simvastatin 20 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '314231', name: 'Simvastatin 10 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '309362', name: 'Clopidogrel 75 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '855332', name: 'Warfarin Sodium 5 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '966222', name: 'Levothyroxine Sodium 0.075 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '312938', name: 'Sertraline 100 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '310385', name: 'FLUoxetine 20 MG Oral Capsule', tty: 'SCD' },
  { rxcui: '312617', name: 'predniSONE 5 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '312615', name: 'predniSONE 20 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '1014678', name: 'cetirizine hydrochloride 10 MG Oral Tablet', tty: 'SCD' },
  { rxcui: '245314', name: 'Albuterol 5 MG/ML Inhalation Solution', tty: 'SCD' },
  { rxcui: '2123111', name: 'NDA020503 200 ACTUAT Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler', tty: 'SCD' },
  { rxcui: '895994', name: '120 ACTUAT Fluticasone propionate 0.044 MG/ACTUAT Metered Dose Inhaler', tty: 'SCD' },
  { rxcui: '1870230', name: 'NDA020800 0.3 ML Epinephrine 1 MG/ML Auto-Injector', tty: 'SCD' },
  { rxcui: '106892', name: 'insulin human isophane 70 UNT/ML / Regular Insulin Human 30 UNT/ML Injectable Suspension [Humulin]', tty: 'SBD' },
  { rxcui: '865098', name: 'Insulin Lispro 100 UNT/ML Injectable Solution [Humalog]', tty: 'SBD' },
  { rxcui: '866414', name: '24 HR metoprolol succinate 100 MG Extended Release Oral Tablet [Toprol]', tty: 'SBD' },
];
