/** The invitation sign-up steps, in order (spec 000 section 2, Invite). */
export const INVITE_STEPS = ['sign-up', 'sign-up-pwd', 'pin-otp', 'add-phone', 'pin-otp-phone'] as const;
export type InviteStep = (typeof INVITE_STEPS)[number];
