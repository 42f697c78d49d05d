/**
 * The sign-in, password-reset and invitation services, for the pages whose action is
 * `export const action = intentAction({ ... })`. That export's initializer is a call, which the browser
 * build keeps, and with it everything its handler names: imported from here, a `.server` module the
 * browser build replaces with nothing, the services (and drizzle, the schema and every locale behind
 * them) stay on the server. `npm run check:bundle` fails when one leaks.
 */
export {
  completeInvitation,
  completeSignIn,
  requestPasswordReset,
  resendLoginPin,
  sendInviteEmailPin,
  setInvitePhone,
  verifyInviteEmail,
  verifyResetPin,
} from '@server/domain/auth/service';
export { findSession } from '@server/domain/auth/sessions';
