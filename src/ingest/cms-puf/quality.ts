import { write } from '../engine/writes.js';
import { Reject, missingFrom, type TabularFormat } from '../engine/tabular-format.js';
import { PLAN_ID, matching } from './values.js';
import { notAPlanOf } from './issuer-rows.js';
import { cell, issuerAndState } from './puf-cells.js';

const RATINGS = [
  ['OverallRatingValue', 'overall'],
  ['MedicalCareRatingValue', 'medical_care'],
  ['MemberExperienceRatingValue', 'member_experience'],
  ['PlanAdministrationRatingValue', 'plan_administration'],
] as const;

const REQUIRED = ['IssuerID', 'State', 'PlanID', ...RATINGS.map(([column]) => column)];

/** A star rating "1".."5", or "NR" with its reason ("NR - New-Ineligible for Scoring", "NR - Not Rated"). */
const RATING = /^(?:[1-5]|NR(?:\s*-\s*.+)?)$/;

/**
 * CMS Quality Rating System (QRS) PUF: the overall star rating of each plan and its three summary
 * indicators, kept as written ('1'–'5' or 'NR - reason'). The file has no year column: give `--year`.
 */
export const qualityFormat: TabularFormat = {
  kind: 'quality',
  summary: 'CMS Quality Rating System PUF (star ratings per plan); needs --year',
  owns: [{ table: 'quality_ratings', scope: 'year' }],
  missingColumns: (header) => missingFrom(header, REQUIRED),
  start({ seen }) {
    return {
      row(cells, year) {
        const ids = issuerAndState(cells, 'IssuerID', 'State');
        if (ids instanceof Reject) return ids;
        const planId = matching(cells, 'PlanID', PLAN_ID, 'a 14-character HIOS plan id');
        if (planId instanceof Reject) return planId;
        const notOurs = notAPlanOf(ids, 'PlanID', planId);
        if (notOurs) return notOurs;
        const values: Record<string, string> = {};
        for (const [column, key] of RATINGS) {
          const value = cell(cells, column);
          if (!RATING.test(value))
            return new Reject(`${column} "${value}" is not a rating 1–5 or "NR - reason"`);
          values[key] = value;
        }
        // A repeated row is dropped; the same plan rated differently twice is a Reject.
        const key = `quality|${year}|${planId}`;
        const same = `${key}|${Object.values(values).join('|')}`;
        if (seen.has(same)) return [];
        if (seen.has(key)) return new Reject(`PlanID ${planId} is rated twice, differently`);
        seen.add(key);
        seen.add(same);
        return [
          write('quality_ratings', {
            year,
            plan_id: planId,
            state: ids.state,
            issuer_id: ids.issuerId,
            overall: values.overall!,
            medical_care: values.medical_care!,
            member_experience: values.member_experience!,
            plan_administration: values.plan_administration!,
          }),
        ];
      },
    };
  },
};
