import { z } from 'zod';
import { pinSchema } from '@server/domain/auth/schema';
import type { PinStepData } from '~/components/auth/pin-step';

/** The two intents of every PIN page (see PinStep): check the PIN, or send a new one. */
export const pinStepIntents = {
  verify: { schema: pinSchema, permission: null },
  resend: { schema: z.object({}), permission: null },
};

/** The answer of a "send a new PIN" that went through. */
export const resent: { data: PinStepData } = { data: { resent: true } };
