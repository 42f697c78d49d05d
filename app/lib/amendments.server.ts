// The amendment pages' services (extend, trip dates, cancel, group name, group leader, paying a
// supplementary invoice), kept out of the browser build.
export {
  createAmendment,
  quoteAmendment,
  confirmAmendment,
  getAmendment,
  updateGroupName,
  assignGroupLeader,
} from '@server/domain/policies/amendments';
export {
  groupLeaderOptions,
  selectionSize,
  unpaidSupplementaryInvoices,
} from '@server/domain/policies/amendments/pages';
