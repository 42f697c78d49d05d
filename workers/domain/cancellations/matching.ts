/**
 * Which column of a cancellation sheet holds the policy id and which the last name, guessed from the
 * headers: the template's own headers in every interface language and common variants, then near
 * misses, with the normalising and similarity of the enrolment import's matching (one way to compare
 * headers). Each target goes to its best column only.
 */
import { templateColumns } from '../../../app/locales';
import type { HeaderKnowledge } from '../imports/files';
import { FUZZY_THRESHOLD, normaliseHeader, similarity } from '../imports/matching';
import { CANCEL_TARGETS, type CancelMapping, type CancelTarget } from './schema';

const SYNONYMS: Record<CancelTarget, string[]> = {
  policy_id: [
    'policy id',
    'policy',
    'policy number',
    'policy no',
    'policy num',
    'policy ref',
    'policy reference',
    'policyid',
    'policy_id',
    'certificate number',
    'confirmation id',
  ],
  last_name: ['last name', 'lastname', 'surname', 'family name', 'name last'],
};

const compact = (s: string) => normaliseHeader(s).replace(/ /g, '');

let known: Map<string, CancelTarget> | null = null;

function knownHeaders(): Map<string, CancelTarget> {
  if (known) return known;
  const out = new Map<string, CancelTarget>();
  for (const columns of Object.values(templateColumns.cancellations)) {
    for (const t of CANCEL_TARGETS) if (columns[t]) out.set(compact(columns[t]), t);
  }
  for (const t of CANCEL_TARGETS)
    for (const s of SYNONYMS[t]) if (!out.has(compact(s))) out.set(compact(s), t);
  known = out;
  return out;
}

/** The target a header names exactly or nearly, with how sure the guess is (0 to 1). */
export function matchCancelHeader(header: string): { target: CancelTarget | null; score: number } {
  const n = compact(header);
  if (!n) return { target: null, score: 0 };
  const k = knownHeaders();
  const exact = k.get(n);
  if (exact) return { target: exact, score: 1 };
  if (n.length < 4 || n.length > 80) return { target: null, score: 0 };
  let best: { target: CancelTarget | null; score: number } = { target: null, score: 0 };
  for (const [text, t] of k) {
    if (text.length < 4) continue;
    const s = similarity(n, text);
    if (s > best.score) best = { target: t, score: s };
  }
  return best.score >= FUZZY_THRESHOLD ? best : { target: null, score: best.score };
}

/** The headers of a cancellation sheet, for finding its header row (a title row above is skipped). */
export const CANCEL_HEADERS: HeaderKnowledge = {
  exact: (c) => knownHeaders().has(compact(c)),
  near: (c) => matchCancelHeader(c).target != null,
  // A sheet may hold the policy id column alone.
  minimum: 1,
};

/** The suggested mapping: each target to the column that names it best (earlier columns win ties). */
export function suggestCancelMapping(headers: readonly string[]): CancelMapping {
  const matches = headers.map((h, index) => ({ index, ...matchCancelHeader(h) }));
  const out: CancelMapping = {};
  for (const m of matches) out[String(m.index)] = null;
  const taken = new Set<CancelTarget>();
  for (const m of [...matches].sort((a, b) => b.score - a.score || a.index - b.index)) {
    if (!m.target || taken.has(m.target)) continue;
    taken.add(m.target);
    out[String(m.index)] = m.target;
  }
  return out;
}
