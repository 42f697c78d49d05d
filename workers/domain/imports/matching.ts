/**
 * Column matching: which applicant field each spreadsheet column holds, guessed from its header.
 *
 * In order of trust: the mapping this client used last time for the same header; the enrolment
 * template's own headers (in every interface language) and common variants ("DOB", "Surname",
 * "Passport No."), compared after normalising case, spacing, accents and punctuation; then a fuzzy match
 * for near misses ("Date of Brith", "Pasport number"). Each field goes to one column at most: the best
 * scoring column wins it. Pure apart from reading the locale texts.
 */
import { templateColumns } from '../../../app/locales';
import { TEMPLATE_COLUMNS } from '../campuses/schema';
import { IMPORT_TARGETS, type ColumnMapping, type ImportTarget } from './schema';

/** Lower case, no accents, punctuation as spaces, single spaces: "  Date-of-Birth (DD/MM) " → "date of birth dd mm". */
export function normaliseHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[#№]/g, ' number ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const compact = (s: string) => s.replace(/ /g, '');

/** The template's column keys as applicant fields. */
const TEMPLATE_TARGET: Record<(typeof TEMPLATE_COLUMNS)[number]['key'], ImportTarget> = {
  type: 'type',
  first_name: 'first_name',
  last_name: 'last_name',
  date_of_birth: 'date_of_birth',
  gender: 'gender',
  email: 'email',
  personal_email: 'personal_email',
  mobile_number_country: 'phone_country',
  mobile_number: 'phone_number',
  passport_number: 'passport_number',
  country_of_residence: 'residence_country_id',
  country_of_destination: 'destination_country_id',
  trip_start_date: 'start_date',
  trip_end_date: 'end_date',
  destination_address: 'destination_address',
  student_number: 'student_number',
  year_of_study: 'year_of_study',
  group_leader: 'group_leader',
  group_name: 'group_name',
};

/** Headers people use for each field, besides the template's own (English, normalised on load). */
const SYNONYMS: Record<ImportTarget, string[]> = {
  type: [
    'type',
    'applicant type',
    'enrolment type',
    'enrollment type',
    'insured type',
    'traveller type',
    'category',
    'role',
  ],
  first_name: [
    'first name',
    'firstname',
    'given name',
    'given names',
    'forename',
    'forenames',
    'first',
    'christian name',
    'name first',
  ],
  last_name: ['last name', 'lastname', 'surname', 'family name', 'last', 'name last', 'second name'],
  date_of_birth: [
    'date of birth',
    'dob',
    'd o b',
    'birth date',
    'birthdate',
    'birthday',
    'date birth',
    'born',
  ],
  gender: ['gender', 'sex'],
  email: [
    'email',
    'email address',
    'e mail',
    'e mail address',
    'mail',
    'student email',
    'school email',
    'work email',
  ],
  personal_email: [
    'personal email',
    'private email',
    'home email',
    'alternative email',
    'secondary email',
    'personal email address',
  ],
  phone_country: [
    'mobile number country',
    'mobile country',
    'phone country',
    'telephone country',
    'dial code',
    'country code',
    'phone country code',
    'mobile country code',
  ],
  phone_number: [
    'mobile number',
    'mobile',
    'mobile phone',
    'mobile no',
    'phone',
    'phone number',
    'phone no',
    'telephone',
    'telephone number',
    'tel',
    'cell',
    'cell phone',
    'contact number',
  ],
  passport_number: [
    'passport number',
    'passport no',
    'passport',
    'passport num',
    'passport id',
    'travel document number',
    'document number',
  ],
  residence_country_id: [
    'country of residence',
    'residence country',
    'residence',
    'nationality',
    'home country',
    'country',
    'country of origin',
    'citizenship',
    'resident country',
  ],
  destination_country_id: [
    'country of destination',
    'destination country',
    'destination',
    'host country',
    'country of study',
    'study country',
  ],
  start_date: [
    'trip start date',
    'start date',
    'start',
    'arrival date',
    'arrival',
    'date of arrival',
    'from',
    'date from',
    'from date',
    'cover start',
    'cover start date',
    'coverage start',
    'course start',
    'course start date',
    'travel start',
    'policy start',
  ],
  end_date: [
    'trip end date',
    'end date',
    'end',
    'departure date',
    'departure',
    'date of departure',
    'to',
    'date to',
    'to date',
    'cover end',
    'cover end date',
    'coverage end',
    'course end',
    'course end date',
    'return date',
    'travel end',
    'policy end',
    'leaving date',
  ],
  destination_address: [
    'destination address',
    'address',
    'address at destination',
    'host address',
    'accommodation',
    'accommodation address',
    'homestay address',
    'address in uk',
  ],
  student_number: [
    'student number',
    'student no',
    'student id',
    'student number id',
    'student ref',
    'student reference',
    'id number',
    'reference',
    'student code',
  ],
  plan: ['plan', 'coverage plan', 'cover plan', 'cover'],
  year_of_study: ['year of study', 'study year', 'year', 'year group', 'grade', 'class', 'form'],
  group_leader: ['group leader', 'leader', 'is group leader', 'group leader email', 'leader email', 'gl'],
  group_name: ['group name', 'group', 'group code', 'group ref'],
};

interface Known {
  /** compact normalised header → target, with 1 for the template's own header and 0.99 for a synonym */
  exact: Map<string, { target: ImportTarget; score: number }>;
  /** every known header (normalised) with its target, for fuzzy matching */
  all: { text: string; target: ImportTarget }[];
}

let known: Known | null = null;

function knownHeaders(): Known {
  if (known) return known;
  const exact = new Map<string, { target: ImportTarget; score: number }>();
  const all: Known['all'] = [];
  const add = (header: string, t: ImportTarget, score = 0.99) => {
    const n = normaliseHeader(header);
    if (!n) return;
    if (!exact.has(compact(n))) exact.set(compact(n), { target: t, score });
    all.push({ text: compact(n), target: t });
  };
  // The template's headers in every language come first: they are what the template download says.
  for (const columns of Object.values(templateColumns.campuses)) {
    for (const c of TEMPLATE_COLUMNS) if (columns[c.key]) add(columns[c.key], TEMPLATE_TARGET[c.key], 1);
  }
  for (const t of IMPORT_TARGETS) {
    add(t.replace(/_/g, ' '), t, 1);
    for (const s of SYNONYMS[t]) add(s, t);
  }
  known = { exact, all };
  return known;
}

/** Sørensen–Dice coefficient of two strings' letter pairs, 0 to 1. */
export function diceCoefficient(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const pairs = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const p = a.slice(i, i + 2);
    pairs.set(p, (pairs.get(p) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const p = b.slice(i, i + 2);
    const n = pairs.get(p) ?? 0;
    if (n > 0) {
      pairs.set(p, n - 1);
      shared++;
    }
  }
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

/**
 * Edit distance counting two swapped neighbours as one edit (optimal string alignment), over three
 * rolling rows: header matching runs it for every cell of a sheet's first rows against every known
 * header, so it allocates nothing per cell pair beyond the rows.
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  const width = b.length + 1;
  let before = new Uint32Array(width); // row i - 2
  let prev = new Uint32Array(width); // row i - 1
  let row = new Uint32Array(width); // row i
  for (let j = 0; j < width; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const cb = b.charCodeAt(j - 1);
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb)
        v = Math.min(v, before[j - 2]! + 1);
      row[j] = v;
    }
    [before, prev, row] = [prev, row, before];
  }
  return prev[b.length]!;
}

/** How alike two normalised headers are, 0 to 1: the better of Dice and the edit-distance ratio. */
export function similarity(a: string, b: string): number {
  const x = compact(a);
  const y = compact(b);
  if (!x || !y) return 0;
  const longest = Math.max(x.length, y.length);
  const dice = diceCoefficient(x, y);
  // The edit distance is at least the difference in length: when even that ratio cannot beat Dice,
  // the distance itself need not be computed (most pairs of a sheet's cells and known headers).
  if (1 - Math.abs(x.length - y.length) / longest <= dice) return dice;
  return Math.max(dice, 1 - editDistance(x, y) / longest);
}

/** Below this a header is left unmatched rather than guessed. */
export const FUZZY_THRESHOLD = 0.8;

export type MatchSource = 'previous' | 'exact' | 'fuzzy' | 'none';

export interface ColumnMatch {
  index: number;
  header: string;
  target: ImportTarget | null;
  source: MatchSource;
  score: number;
}

/** The best guess for one header: exact or synonym (score 1), else the closest known header. */
/** The field a header names exactly (a template header or a synonym, in any case and spacing), if any. */
export function exactHeaderTarget(header: string): ImportTarget | null {
  const n = compact(normaliseHeader(header));
  return (n && knownHeaders().exact.get(n)?.target) || null;
}

/** Known headers are a few words; a text longer than this is compared exactly only. */
const MAX_FUZZY_LENGTH = 80;

export function matchHeader(header: string): {
  target: ImportTarget | null;
  score: number;
  source: MatchSource;
} {
  const n = compact(normaliseHeader(header));
  if (!n) return { target: null, score: 0, source: 'none' };
  const k = knownHeaders();
  const exact = k.exact.get(n);
  if (exact) return { ...exact, source: 'exact' };
  // A long text (a data cell looked at while finding the header row) is no near miss of any known
  // header, and comparing megabytes letter by letter would take minutes.
  if (n.length > MAX_FUZZY_LENGTH) return { target: null, score: 0, source: 'none' };
  let best: { target: ImportTarget | null; score: number } = { target: null, score: 0 };
  for (const h of k.all) {
    // Short headers ("to", "gl") only ever match exactly: a near miss of two letters is noise.
    if (h.text.length < 4 || n.length < 4) continue;
    const s = similarity(n, h.text);
    if (s > best.score) best = { target: h.target, score: s };
  }
  return best.score >= FUZZY_THRESHOLD
    ? { target: best.target, score: best.score, source: 'fuzzy' }
    : { target: null, score: best.score, source: 'none' };
}

/**
 * What a previous import's mapping says about headers: normalised header → target (or null when the
 * user ignored that column).
 */
export function rememberedMapping(
  headers: readonly string[],
  mapping: ColumnMapping | null | undefined,
): Map<string, ImportTarget | null> {
  const out = new Map<string, ImportTarget | null>();
  if (!mapping) return out;
  headers.forEach((h, i) => {
    const n = compact(normaliseHeader(h));
    if (n && String(i) in mapping && !out.has(n)) out.set(n, mapping[String(i)] ?? null);
  });
  return out;
}

/**
 * The suggested mapping of a sheet's headers: the client's previous choice for the same header first,
 * then exact and synonym matches, then fuzzy ones; each target goes to its best column only.
 */
export function suggestMapping(
  headers: readonly string[],
  previous?: Map<string, ImportTarget | null>,
): ColumnMatch[] {
  const matches: ColumnMatch[] = headers.map((header, index) => {
    const n = compact(normaliseHeader(header));
    if (previous && n && previous.has(n))
      return { index, header, target: previous.get(n) ?? null, source: 'previous', score: 2 };
    return { index, header, ...matchHeader(header) };
  });
  // Give each target to its best-scoring column; earlier columns win ties.
  const taken = new Map<ImportTarget, ColumnMatch>();
  const ranked = [...matches].sort((a, b) => b.score - a.score || a.index - b.index);
  for (const m of ranked) {
    if (!m.target) continue;
    if (taken.has(m.target)) {
      m.target = null;
      m.source = 'none';
      continue;
    }
    taken.set(m.target, m);
  }
  return matches;
}

/** A list of matches as the stored mapping (column index → target or null). */
export function toMapping(matches: readonly { index: number; target: ImportTarget | null }[]): ColumnMapping {
  const out: ColumnMapping = {};
  for (const m of matches) out[String(m.index)] = m.target;
  return out;
}
