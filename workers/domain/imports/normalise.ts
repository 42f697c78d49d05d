/**
 * Spreadsheet values as the applicant schema wants them: dates as YYYY-MM-DD (day/month order as the
 * user confirmed it), genders and applicant types as their enum values, countries as country ids.
 * A value that cannot be read is passed on as typed, so the schema reports it on its cell ("Country not
 * found", "Invalid date") and the user sees what they sent. Pure.
 */
import { GENDERS, type ApplicantField, type ApplicantType, type Gender } from '../enrollments/values';
import type { ColumnMapping, DateOrder, ImportTarget } from './values';

// ------------------------------------------------------------------ text

/** Lower case, no accents, anything but letters and digits as single spaces. */
export function simplify(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// ------------------------------------------------------------------ dates

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
};

const pad = (n: number) => String(n).padStart(2, '0');

function valid(y: number, m: number, d: number): string | null {
  if (!(y >= 1900 && y <= 3000 && m >= 1 && m <= 12 && d >= 1 && d <= 31)) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** A two-digit year: up to 20 years ahead of today counts as this century, the rest as the last. */
function fullYear(y: number, today: string): number {
  if (y >= 100) return y;
  const now = Number(today.slice(0, 4));
  const century = Math.floor(now / 100) * 100;
  return y <= (now % 100) + 20 ? century + y : century - 100 + y;
}

/** Excel's day serial (1 = 1900-01-01, with its 1900 leap-year bug) as a date. */
export function excelSerialDate(serial: number): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2958465) return null;
  const ms = Date.UTC(1899, 11, 30) + Math.floor(serial) * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * A date as YYYY-MM-DD, or null when it cannot be read. Accepts YYYY-MM-DD (with or without a time),
 * YYYY/MM/DD, D/M/YYYY and D/M/YY in the given order (also with . or - between), "5 Sep 2026",
 * "Sep 5, 2026", and Excel day serials (a date cell saved to CSV as a number).
 */
export function parseDate(value: string, order: DateOrder, today: string): string | null {
  const v = value.trim();
  if (!v) return null;
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ][\d:.]+Z?)?$/.exec(v);
  if (m) return valid(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[-/. ](\d{1,2})[-/. ](\d{2}|\d{4})(?: [\d:.]+)?$/.exec(v);
  if (m) {
    const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (order === 'ymd') return m[3].length === 4 ? null : valid(fullYear(a, today), b, c);
    const year = fullYear(c, today);
    return order === 'mdy' ? valid(year, a, b) : valid(year, b, a);
  }
  m = /^(\d{1,2})(?:st|nd|rd|th)?[-/. ]+([a-z]+)\.?,?[-/. ]+(\d{2}|\d{4})$/i.exec(v);
  if (m && MONTHS[m[2].toLowerCase()])
    return valid(fullYear(Number(m[3]), today), MONTHS[m[2].toLowerCase()], Number(m[1]));
  m = /^([a-z]+)\.?[-/. ]+(\d{1,2})(?:st|nd|rd|th)?,?[-/. ]+(\d{2}|\d{4})$/i.exec(v);
  if (m && MONTHS[m[1].toLowerCase()])
    return valid(fullYear(Number(m[3]), today), MONTHS[m[1].toLowerCase()], Number(m[2]));
  if (/^\d{5}(\.\d+)?$/.test(v)) return excelSerialDate(Number(v));
  return null;
}

/**
 * Which day/month order the slash dates of some values follow: 'dmy' when a first part is above 12,
 * 'mdy' when only second parts are, null when nothing tells (then the region's DD/MM stands).
 */
export function guessDateOrder(values: Iterable<string>): DateOrder | null {
  let dmy = 0;
  let mdy = 0;
  for (const v of values) {
    const vote = dateOrderVote(v);
    if (vote === 'dmy') dmy++;
    else if (vote === 'mdy') mdy++;
  }
  if (dmy && !mdy) return 'dmy';
  if (mdy && !dmy) return 'mdy';
  if (dmy || mdy) return dmy >= mdy ? 'dmy' : 'mdy';
  return null;
}

/** The order one value shows: a slash date whose first part is above 12 is DD/MM, whose second is MM/DD. */
function dateOrderVote(v: string): DateOrder | null {
  // Most cells are not dates: only text of a date's length that starts with a digit (or a space) is
  // tried against the pattern.
  if (v.length < 6 || v.length > 40) return null;
  const c = v.charCodeAt(0);
  if (!((c >= 48 && c <= 57) || c <= 32 || c === 160)) return null;
  const m = /^\s*(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})\s*$/.exec(v);
  if (!m) return null;
  const [a, b] = [Number(m[1]), Number(m[2])];
  if (a > 12 && b <= 12) return 'dmy';
  if (b > 12 && a <= 12) return 'mdy';
  return null;
}

// ------------------------------------------------------------------ enums

const GENDER_WORDS: Record<string, Gender> = {
  m: 'male',
  male: 'male',
  man: 'male',
  boy: 'male',
  masculine: 'male',
  mr: 'male',
  f: 'female',
  female: 'female',
  woman: 'female',
  girl: 'female',
  feminine: 'female',
  w: 'female',
  'non binary': 'non_binary',
  nonbinary: 'non_binary',
  nb: 'non_binary',
  enby: 'non_binary',
  other: 'other',
  o: 'other',
  transgender: 'transgender',
  trans: 'transgender',
  undefined: 'undefined',
  unknown: 'undefined',
  u: 'undefined',
  x: 'undefined',
  'not specified': 'undefined',
  'prefer not to respond': 'prefer_not_to_respond',
  'prefer not to say': 'prefer_not_to_respond',
  'prefer not to answer': 'prefer_not_to_respond',
  'rather not say': 'prefer_not_to_respond',
  'not disclosed': 'prefer_not_to_respond',
  pnts: 'prefer_not_to_respond',
};

/** A gender as the GENDERS enum ("Non-binary" → non_binary, "M" → male), or the text as typed. */
export function normaliseGender(value: string): string {
  const s = simplify(value);
  if (!s) return '';
  const underscored = s.replace(/ /g, '_');
  if ((GENDERS as readonly string[]).includes(underscored)) return underscored;
  return GENDER_WORDS[s] ?? GENDER_WORDS[s.replace(/ /g, '')] ?? value.trim();
}

const TYPE_WORDS: Record<string, ApplicantType> = {
  student: 'student',
  students: 'student',
  s: 'student',
  pupil: 'student',
  learner: 'student',
  'immediate family': 'immediate_family',
  'immediate family member': 'immediate_family',
  immediatefamily: 'immediate_family',
  family: 'immediate_family',
  'family member': 'immediate_family',
  dependant: 'immediate_family',
  dependent: 'immediate_family',
  if: 'immediate_family',
  'group leader': 'group_leader',
  groupleader: 'group_leader',
  leader: 'group_leader',
  gl: 'group_leader',
  teacher: 'group_leader',
  chaperone: 'group_leader',
};

/** An applicant type ("Group Leader", "immediate-family", " STUDENT ") as its enum value, or as typed. */
export function normaliseType(value: string): string {
  const s = simplify(value);
  if (!s) return '';
  return TYPE_WORDS[s] ?? TYPE_WORDS[s.replace(/ /g, '')] ?? value.trim();
}

const YES = new Set(['yes', 'y', 'true', '1', 'x', 'si', 'ja', 'oui', 'sim', '是']);

export function isYes(value: string): boolean {
  return YES.has(simplify(value)) || value.trim() === '✓' || value.trim() === '✔';
}

// ------------------------------------------------------------------ countries

export interface CountryRow {
  id: number;
  name: string;
  abbreviation: string;
  code?: string | null;
  dial_code?: string | null;
}

/** Other names people write for a country, by ISO alpha-2 code. */
const COUNTRY_ALIASES: Record<string, string[]> = {
  GB: [
    'uk',
    'u k',
    'great britain',
    'britain',
    'england',
    'scotland',
    'wales',
    'northern ireland',
    'british',
    'english',
    'scottish',
    'welsh',
  ],
  US: ['usa', 'u s a', 'u s', 'united states of america', 'america', 'american'],
  KR: ['korea', 'republic of korea', 'korea republic of', 'korean', 'south korean'],
  KP: ['democratic people s republic of korea', 'north korean'],
  RU: ['russian federation', 'russian'],
  CZ: ['czech republic', 'czech'],
  TR: ['turkey', 'turkiye', 'turkish'],
  NL: ['holland', 'the netherlands', 'dutch'],
  CN: ['china', 'prc', 'people s republic of china', 'mainland china', 'chinese'],
  TW: ['taiwan', 'republic of china', 'taiwanese'],
  HK: ['hong kong sar', 'hong kong china', 'hongkong'],
  MO: ['macau', 'macao sar'],
  VN: ['viet nam', 'vietnamese'],
  IR: ['iran islamic republic of', 'iranian'],
  AE: ['uae', 'u a e', 'emirates', 'emirati'],
  SA: ['ksa', 'saudi', 'saudi arabian'],
  CI: ['ivory coast', 'cote d ivoire'],
  CD: ['dr congo', 'drc', 'democratic republic of the congo'],
  MK: ['macedonia'],
  SZ: ['swaziland'],
  MM: ['burma'],
  LA: ['lao', 'lao pdr'],
  SY: ['syrian arab republic'],
  BO: ['bolivia plurinational state of'],
  VE: ['venezuela bolivarian republic of'],
  TZ: ['tanzania united republic of'],
  MD: ['moldova republic of'],
  IE: ['eire', 'republic of ireland', 'irish'],
  ES: ['spanish'],
  FR: ['french'],
  DE: ['german', 'deutschland'],
  IT: ['italian'],
  PT: ['portuguese'],
  JP: ['japanese'],
  TH: ['thai'],
  IN: ['indian'],
  BR: ['brazilian', 'brasil'],
  MX: ['mexican'],
  AR: ['argentinian', 'argentine'],
  CO: ['colombian'],
  CL: ['chilean'],
  PE: ['peruvian'],
  CA: ['canadian'],
  AU: ['australian'],
  NZ: ['new zealander', 'kiwi'],
  CH: ['swiss'],
  AT: ['austrian'],
  BE: ['belgian'],
  SE: ['swedish'],
  NO: ['norwegian'],
  DK: ['danish'],
  FI: ['finnish'],
  PL: ['polish'],
  GR: ['greek'],
  HU: ['hungarian'],
  RO: ['romanian'],
  UA: ['ukrainian'],
  KZ: ['kazakh', 'kazakhstani'],
  NG: ['nigerian'],
  GH: ['ghanaian'],
  KE: ['kenyan'],
  EG: ['egyptian'],
  MA: ['moroccan'],
  ZA: ['south african'],
  PK: ['pakistani'],
  BD: ['bangladeshi'],
  LK: ['sri lankan'],
  MY: ['malaysian'],
  SG: ['singaporean'],
  ID: ['indonesian'],
  PH: ['filipino', 'philippine'],
  KW: ['kuwaiti'],
  QA: ['qatari'],
  OM: ['omani'],
  BH: ['bahraini'],
  JO: ['jordanian'],
  LB: ['lebanese'],
  IL: ['israeli'],
  IQ: ['iraqi'],
  NP: ['nepalese', 'nepali'],
  MN: ['mongolian'],
  UZ: ['uzbek'],
  AZ: ['azerbaijani'],
  GE: ['georgian'],
  AM: ['armenian'],
};

/** Dial codes shared by several countries: the one a number most likely belongs to. */
const DIAL_PREFERENCE: Record<string, string> = {
  '1': 'US',
  '7': 'RU',
  '44': 'GB',
  '61': 'AU',
  '39': 'IT',
  '47': 'NO',
  '358': 'FI',
  '590': 'GP',
  '599': 'CW',
  '262': 'RE',
  '212': 'MA',
};

/** Looks countries up by name, alias, nationality, ISO alpha-2 or alpha-3 code. Built once per import. */
export class CountryIndex {
  private byKey = new Map<string, CountryRow>();
  private byDial = new Map<string, CountryRow>();

  constructor(rows: readonly CountryRow[]) {
    const byCode = new Map<string, CountryRow>();
    for (const r of rows) byCode.set(r.abbreviation.toUpperCase(), r);
    const put = (key: string, r: CountryRow) => {
      const k = simplify(key);
      if (k && !this.byKey.has(k)) this.byKey.set(k, r);
    };
    for (const r of rows) {
      put(r.name, r);
      put(r.abbreviation, r);
      if (r.code) put(r.code, r);
    }
    for (const [code, aliases] of Object.entries(COUNTRY_ALIASES)) {
      const r = byCode.get(code);
      if (r) for (const a of aliases) put(a, r);
    }
    for (const r of rows) {
      if (!r.dial_code) continue;
      const existing = this.byDial.get(r.dial_code);
      const preferred = DIAL_PREFERENCE[r.dial_code];
      if (!existing || r.abbreviation === preferred) this.byDial.set(r.dial_code, r);
    }
  }

  find(value: string): CountryRow | null {
    const k = simplify(value);
    if (!k) return null;
    return this.byKey.get(k) ?? this.byKey.get(k.replace(/^the /, '')) ?? null;
  }

  /** The country of a dial code ("+44", "0044", "44"). */
  dial(value: string): CountryRow | null {
    const m = /^\s*(?:\+|00)?(\d{1,4})\s*$/.exec(value);
    return m ? (this.byDial.get(m[1]) ?? null) : null;
  }

  /** The country of an international number ("+44 7700 900123", "0044…"), with the rest of the number. */
  byPhone(value: string): { country: CountryRow; rest: string } | null {
    const digits = value
      .trim()
      .replace(/^00/, '+')
      .replace(/[\s().-]/g, '');
    if (!digits.startsWith('+')) return null;
    for (let len = 4; len >= 1; len--) {
      const code = digits.slice(1, 1 + len);
      const r = this.byDial.get(code);
      if (r) return { country: r, rest: digits.slice(1 + len) };
    }
    return null;
  }
}

// ------------------------------------------------------------------ rows

/** Headers made unique and never blank, as the keys of an imported row's original cells. */
export function sourceHeaders(headers: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return headers.map((h, i) => {
    const base = h.trim() || `Column ${columnLetter(i)}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} (${n})`;
  });
}

/** 0 → A, 25 → Z, 26 → AA. */
export function columnLetter(index: number): string {
  let s = '';
  let n = index + 1;
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

export interface RowContext {
  mapping: ColumnMapping;
  /** sourceHeaders() of the sheet. */
  headers: readonly string[];
  dateOrder: DateOrder;
  countries: CountryIndex;
  /** The campus's country: the destination when the sheet does not name one. */
  defaultDestinationId: number | null;
  today: string;
}

export interface ReadRow {
  raw: Partial<Record<ApplicantField, string | number>>;
  /** The email (or name) in the Group Leader column of a student or family member. */
  leaderRef: string | null;
}

const readDate = (text: string, rc: RowContext) => parseDate(text, rc.dateOrder, rc.today) ?? text;
const readCountry = (text: string, rc: RowContext) => rc.countries.find(text)?.id ?? text;

/** How the cells of the fields that are not kept as typed are read. */
const VALUE_READERS = {
  date_of_birth: readDate,
  start_date: readDate,
  end_date: readDate,
  gender: (text: string) => normaliseGender(text),
  type: (text: string) => normaliseType(text),
  residence_country_id: readCountry,
  destination_country_id: readCountry,
  phone_country: (text: string, rc: RowContext) =>
    (rc.countries.find(text) ?? rc.countries.dial(text))?.abbreviation ?? text,
} satisfies Partial<Record<ApplicantField, (text: string, rc: RowContext) => string | number>>;

/**
 * A cell read by its field's reader, remembered per context: a sheet repeats its dates, countries and
 * types thousands of times.
 */
const readCache = new WeakMap<RowContext, Map<string, string | number>>();
function readValue(rc: RowContext, target: keyof typeof VALUE_READERS, text: string): string | number {
  let cache = readCache.get(rc);
  if (!cache) readCache.set(rc, (cache = new Map()));
  const key = `${target}\u0000${text}`;
  let value = cache.get(key);
  if (value === undefined) cache.set(key, (value = VALUE_READERS[target](text, rc)));
  return value;
}

const mappedCache = new WeakMap<ColumnMapping, [number, ImportTarget][]>();
/** The matched columns of a mapping (column index, field), worked out once per mapping. */
function mappedColumns(mapping: ColumnMapping): [number, ImportTarget][] {
  let columns = mappedCache.get(mapping);
  if (!columns) {
    columns = Object.entries(mapping)
      .filter((e): e is [string, ImportTarget] => !!e[1])
      .map(([column, target]) => [Number(column), target]);
    mappedCache.set(mapping, columns);
  }
  return columns;
}

/** One sheet row as an applicant, by the confirmed mapping. */
export function readRow(cells: readonly string[], rc: RowContext): ReadRow {
  const raw: ReadRow['raw'] = {};
  let leaderRef: string | null = null;
  let isLeader = false;
  for (const [column, target] of mappedColumns(rc.mapping)) {
    const text = (cells[column] ?? '').trim();
    if (!text) continue;
    if (target === 'group_leader') {
      if (isYes(text)) isLeader = true;
      else if (!/^(no|n|false|0|-)$/i.test(text)) leaderRef = text;
      continue;
    }
    if (target in VALUE_READERS) raw[target] = readValue(rc, target as keyof typeof VALUE_READERS, text);
    else raw[target] = text;
  }
  if (isLeader) raw.type = 'group_leader';
  if (raw.destination_country_id == null && rc.defaultDestinationId != null)
    raw.destination_country_id = rc.defaultDestinationId;
  if (typeof raw.phone_number === 'string' && !raw.phone_country) {
    const international = rc.countries.byPhone(raw.phone_number);
    if (international) {
      raw.phone_country = international.country.abbreviation;
      raw.phone_number = international.rest;
    }
  } else if (typeof raw.phone_number === 'string' && raw.phone_country) {
    const international = rc.countries.byPhone(raw.phone_number);
    if (international && international.country.abbreviation === raw.phone_country)
      raw.phone_number = international.rest;
  }
  return { raw, leaderRef };
}

/** A row's original non-empty cells, header (sourceHeaders()) → text. */
export function sourceCells(cells: readonly string[], headers: readonly string[]): Record<string, string> {
  const source: Record<string, string> = {};
  for (let i = 0; i < cells.length; i++) {
    const text = cells[i] ?? '';
    if (text.trim() && headers[i]) source[headers[i]] = text;
  }
  return source;
}
