import { eq } from 'drizzle-orm';
import { usedHandoverTokens, users } from '../../../drizzle/schema';
import {
  constantTimeEqual,
  fromBase64Url,
  hmacSha256,
  randomToken,
  toBase64Url,
} from '../../platform/crypto';
import { requireActor } from '../access/actor';
import type { Ctx } from '../context';
import { Forbidden, Unauthenticated } from '../errors';
import { isLocalPath, msg } from '../validation';
import { signInTrusted } from './service';
import { refuseInSupportView } from '../access/support';

/**
 * Region hand-over (UK <-> Ireland). The token is an HMAC-signed claim (secret shared by both regions)
 * naming the user's email, the target region, a lifetime of at most 60 seconds and a single-use id.
 */
export const HANDOVER_LIFETIME_MS = 60_000;

interface Claims {
  email: string;
  region: 'uk' | 'ie';
  exp: number;
  jti: string;
}

const encoder = new TextEncoder();

async function sign(secret: string, claims: Claims): Promise<string> {
  const body = toBase64Url(encoder.encode(JSON.stringify(claims)));
  const signature = toBase64Url(await hmacSha256(secret, `handover.${body}`));
  return `${body}.${signature}`;
}

async function verify(secret: string, token: string): Promise<Claims | null> {
  const [body, signature] = token.split('.');
  if (!body || !signature) return null;
  const expected = toBase64Url(await hmacSha256(secret, `handover.${body}`));
  if (!constantTimeEqual(expected, signature)) return null;
  try {
    return JSON.parse(new TextDecoder().decode(fromBase64Url(body))) as Claims;
  } catch {
    return null;
  }
}

/** The other region of this Worker. */
export function otherRegion(region: string): 'uk' | 'ie' {
  return region === 'uk' ? 'ie' : 'uk';
}

/**
 * Builds the address of the other region's /auth/token page for the signed-in user. Only users holding
 * a token for the other region (an account there) may do this.
 */
export async function createHandoverUrl(ctx: Ctx, path: string): Promise<string> {
  const actor = requireActor(ctx.actor);
  refuseInSupportView(actor);
  if (!actor.holds_other_region_token) throw new Forbidden();
  const claims: Claims = {
    email: actor.email,
    region: otherRegion(ctx.env.REGION),
    exp: ctx.now.getTime() + HANDOVER_LIFETIME_MS,
    jti: randomToken(),
  };
  const token = await sign(ctx.env.HANDOVER_SECRET, claims);
  const url = new URL(`/auth/token/${claims.jti}`, ctx.env.OTHER_REGION_URL);
  url.searchParams.set('otherUserToken', token);
  url.searchParams.set('path', safePath(path));
  return url.toString();
}

/** Only a local path may be carried over; anything else becomes /home. */
export function safePath(path: string | null | undefined): string {
  return path && isLocalPath(path) ? path : '/home';
}

/**
 * Accepts a hand-over token in this region: signature, target region, expiry and single use are checked,
 * then the user with that email is signed in here.
 */
export async function acceptHandover(
  ctx: Ctx,
  input: { token: string; jti?: string | null },
  kind: 'web' | 'api' = 'web',
) {
  const invalid = new Unauthenticated(msg('auth.handover_invalid'));
  const claims = await verify(ctx.env.HANDOVER_SECRET, input.token);
  if (!claims || claims.region !== ctx.env.REGION || claims.exp <= ctx.now.getTime()) throw invalid;
  if (claims.exp - ctx.now.getTime() > HANDOVER_LIFETIME_MS) throw invalid;
  if (input.jti && input.jti !== claims.jti) throw invalid;
  const used = await ctx.db
    .insert(usedHandoverTokens)
    .values({ jti: claims.jti, expires_at: new Date(claims.exp) })
    .onConflictDoNothing()
    .returning({ jti: usedHandoverTokens.jti });
  if (!used.length) throw invalid;
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(eq(users.email, claims.email.toLowerCase()))
    .limit(1);
  if (!user || user.status !== 'active' || user.suspended) throw invalid;
  return signInTrusted(ctx, user.id, kind, { holdsOtherRegionToken: true });
}

/**
 * The handover page's sign-in (`/auth/token/{jti}?otherUserToken=…`): the new session's token, or the
 * reason the link does not sign in (the page says it).
 */
export async function acceptHandoverLink(
  ctx: Ctx,
  input: { token: string | null; jti: string | null },
): Promise<{ session: string; error: null } | { session: null; error: string }> {
  try {
    if (!input.token) throw new Unauthenticated(msg('auth.handover_invalid'));
    const { token } = await acceptHandover(ctx, { token: input.token, jti: input.jti });
    return { session: token, error: null };
  } catch (e) {
    if (e instanceof Unauthenticated) return { session: null, error: e.message };
    throw e;
  }
}
