/**
 * An OPPS Addendum B file in its published layout (title lines, then the header), built only from published
 * figures: the code → APC pairs of CMS's July 2026 OPPS Addendum B release, as publicly reported (G0463 →
 * APC 5012, status J2; 71046 → APC 5521, status S) with the CY 2025 payment columns of those APCs from the
 * real Addendum A excerpt (a code paid at its APC's rate prints the APC's figures). 71046 is a CPT code: its
 * AMA descriptor is not shipped, so the cell is empty; G0463's is the public HCPCS Level II short descriptor.
 */
export const ADDENDUM_B_2025 = [
  'Addendum B.-Final OPPS Payment by HCPCS Code for CY 2025,,,,,,,,',
  'CPT codes and descriptions only are copyright 2024 American Medical Association. All Rights Reserved.,,,,,,,,',
  ',,,,,,,,',
  'HCPCS Code,Short Descriptor,SI,APC,Relative Weight,Payment Rate,National Unadjusted Copayment,Minimum Unadjusted Copayment,Note',
  'G0463,Hospital outpt clinic visit,J2,5012,1.4452,$128.87,.,$25.78,',
  '71046,,S,5521,0.9874,$88.05,.,$17.61,',
  ',,,,,,,,',
  '"Note: built for openenroll\'s tests from published rows (see the test), not a CMS file",,,,,,,,',
];
