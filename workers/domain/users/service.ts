/**
 * Company users and school users (spec 001 s.3 and s.4; catalogue: "Company users", "School users"):
 * lists, invitations, edits and every state move, for the /manage-users screens, the client's and the
 * campus's Users tabs and the JSON API alike. Split by subject: rules.ts (who may do what, the grant
 * rule, the values written), lists.ts, detail.ts, invite.ts, edit.ts, moves.ts.
 *
 * Who may do what (docs/decisions/roles-and-users.md, "Users"): company users are managed with the user permissions
 * (read_user, create_user, update_user, archive_user, delete_user); school users by company staff with
 * the client-user permissions and by school users with the school-user permissions. Which users an actor
 * reaches is `visibleUsers` (access/scope.ts); a user of another tenant answers "not found". Nobody
 * grants a role beyond their own permissions, of another family, or of a company outside their own or
 * the user's (access/grants.ts), and nobody changes a user who holds more than they do.
 */
export { USER_PERMISSIONS, userAbilities } from './rules';
export {
  listCampusUsers,
  listClientUsers,
  listCompanyUsers,
  listSchoolUsers,
  schoolUserFilters,
  usersSummary,
  type UserListItem,
} from './lists';
export { getUser, userFormOptions, type UserDetail } from './detail';
export {
  inviteCompanyUser,
  invitedMessageKey,
  inviteSchoolUser,
  resendInvitation,
  revokeInvitation,
  type InvitedUser,
} from './invite';
export { updateCompanyUser, updateSchoolUser } from './edit';
export {
  activateUser,
  approveSchoolUser,
  archiveUser,
  cancelSchoolUser,
  declineUser,
  deleteUser,
  setUserStatus,
  suspendSchoolUser,
  unsuspendSchoolUser,
  userMoves,
} from './moves';
