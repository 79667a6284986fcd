import { invalidInput } from '../errors.js';

/** How a comma-joined list of ids is checked: its name, the id's form, and how many it may hold. */
export interface IdList {
  name: string;
  pattern: RegExp;
  /** The form, for the error ("RxCUIs (1 to 10 digits)"). */
  form: string;
  max: number;
}

/**
 * The ids of a comma-joined query value (`planids=a,b`: the deployed service reads only comma-joined lists,
 * docs/decisions.md#id-lists), each once, in the order given. 1003 naming the list and the first bad id.
 */
export function parseIdList(what: string, list: IdList, value: string): string[] {
  const ids = [...new Set(value.split(',').map((id) => id.trim()))];
  if (ids.length === 1 && ids[0] === '')
    throw invalidInput(what, `${list.name}: at least one id is required`);
  const bad = ids.find((id) => !list.pattern.test(id));
  if (bad !== undefined)
    throw invalidInput(what, `${list.name}: "${bad.slice(0, 40)}" is not one of ${list.form}, comma-joined`);
  if (ids.length > list.max) throw invalidInput(what, `${list.name}: at most ${list.max} ids`);
  return ids;
}

export const PLAN_IDS: IdList = {
  name: 'planids',
  pattern: /^[0-9]{5}[A-Z]{2}[0-9]{7}$/,
  form: '14-character HIOS plan ids',
  max: 500,
};
