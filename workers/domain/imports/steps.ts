/**
 * The steps of ordering, by spreadsheet and one by one, and where a step leads when what it works on is
 * missing or has moved on. Each step is a page that works on one import or batch, named in its address
 * (`?import=`, `?batch=`); opened without it (a bookmark, a reload after the import went into the cart,
 * the back button) or with an import in another state, the page leads the person to where they can go
 * on, with a message saying why, rather than answering "Page Not Found!".
 *
 * Pure (no database, no zod): the pages' "continue" links read the same places. leads.ts reads the
 * state and applies these rules.
 */
import type { BATCH_STATUSES, IMPORT_STATUSES } from '../../../drizzle/schema/ordering-enums';
import { msg } from '../messages';

type ImportStatus = (typeof IMPORT_STATUSES)[number];
type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The first step of both ways of ordering: choose the campus and the product. */
export const ORDER_START = '/insureds/order';

/** The steps of ordering by spreadsheet that work on an import or its batch. */
export type ImportStepName = 'match' | 'format' | 'review' | 'link' | 'fees' | 'success';

export const IMPORT_STEP_PATHS: Record<ImportStepName, string> = {
  match: '/insureds/match-columns',
  format: '/insureds/format-data',
  review: '/insureds/review-applicants',
  link: '/insureds/new/link-dependents',
  fees: '/insureds/new/import-fees',
  success: '/insureds/new/import-success',
};
const IMPORT_ORDER: ImportStepName[] = ['match', 'format', 'review', 'link', 'fees', 'success'];

/** The steps of ordering one by one (group leaders is a step of both ways; it reads a batch). */
export type OrderStepName = 'add' | 'fees' | 'group_leader' | 'review';

/** Where a step sends the person instead, and the message shown there once (null: the flow's own next page). */
export interface Lead {
  path: string;
  message: string | null;
}

/** What a step of the spreadsheet order finds: the import (as a person sees its status) and its batch. */
export interface ImportState {
  import: { id: string; status: ImportStatus } | null;
  /** The import's batch: null while the sheet is not staged, or when its order was discarded. */
  batch: { id: string; status: BatchStatus } | null;
}

/**
 * Where an import stands: the step it goes on at, or null when its order is gone (discarded before it
 * went into the cart). A failed import goes on at its progress page, which says what went wrong.
 */
export function importPlace(s: ImportState): { step: ImportStepName; path: string } | null {
  const at = (step: ImportStepName, ref: string) => ({ step, path: `${IMPORT_STEP_PATHS[step]}?${ref}` });
  if (s.batch && s.batch.status !== 'draft') return at('success', `batch=${s.batch.id}`);
  if (!s.import) return s.batch ? at('review', `batch=${s.batch.id}`) : null;
  const ref = `import=${s.import.id}`;
  switch (s.import.status) {
    case 'uploaded':
      return at('match', ref);
    case 'staging':
    case 'failed':
      return at('format', ref);
    case 'review':
      return s.batch ? at('review', ref) : null;
    case 'done':
      return null;
  }
}

/** Whether a step can show the import as it stands. */
function importStepFits(step: ImportStepName, s: ImportState): boolean {
  const status = s.import?.status;
  const draft = s.batch?.status === 'draft';
  switch (step) {
    case 'match':
      // A staged import may be matched again (its draft is staged afresh) until it is in the cart.
      return status === 'uploaded' || status === 'failed' || (status === 'review' && draft);
    case 'format':
      return status === 'staging' || status === 'failed';
    case 'review':
    case 'link':
    case 'fees':
      return draft && (!s.import || status === 'review');
    case 'success':
      return !!s.batch && !draft;
  }
}

/**
 * Where a step leads for the import (or batch) it was opened with: null when the step shows it. Going
 * forward on the flow's own way (the progress page once the rows are read) says nothing; an import
 * already in the cart leads to its result, one that is not that far yet to where it stands, and one
 * whose order was discarded to the start.
 */
export function importStepLead(step: ImportStepName, s: ImportState): Lead | null {
  if (importStepFits(step, s)) return null;
  const place = importPlace(s);
  if (!place) return { path: ORDER_START, message: msg('imports.leads.discarded') };
  if (place.step === 'success') return { path: place.path, message: msg('imports.leads.in_cart') };
  const forward = IMPORT_ORDER.indexOf(place.step) > IMPORT_ORDER.indexOf(step);
  return { path: place.path, message: forward ? null : msg('imports.leads.not_ready') };
}

/**
 * Where a step leads when the import it names is not there (no address, or one not found): the
 * person's newest import under way, else the start. The result page leads to the cart, where every
 * order that went in is.
 */
export function missingImportLead(step: ImportStepName, open: ImportState | null): Lead {
  if (step === 'success') return { path: '/cart', message: msg('imports.leads.to_cart') };
  const place = open ? importPlace(open) : null;
  if (place) return { path: place.path, message: msg('imports.leads.resumed') };
  return { path: ORDER_START, message: msg('imports.leads.none') };
}

/** A batch that may still change (isEditable's rule): draft or in the cart. */
const EDITABLE: readonly BatchStatus[] = ['draft', 'open'];

/**
 * Where a step of ordering one by one leads for its batch: null when the batch may still change; a batch
 * checked out or cleared leads to the start.
 */
export function orderStepLead(_step: OrderStepName, batch: { status: BatchStatus }): Lead | null {
  if (EDITABLE.includes(batch.status)) return null;
  return { path: ORDER_START, message: msg('order.leads.closed') };
}

/** Where a step of ordering one by one leads without its batch: the person's newest order left open, else the start. */
export function missingOrderLead(open: { id: string } | null): Lead {
  if (open) return { path: `/insureds/new/add?batch=${open.id}`, message: msg('order.leads.resumed') };
  return { path: ORDER_START, message: msg('order.leads.none') };
}
