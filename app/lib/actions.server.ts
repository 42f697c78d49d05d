import {
  json,
  redirect,
  type ActionFunctionArgs,
  type AppLoadContext,
  type TypedResponse,
} from '@remix-run/cloudflare';
import type { Params } from '@remix-run/react';
import type { Submission } from '@conform-to/dom';
import { parseWithZod } from '@conform-to/zod';
import type { z } from 'zod';
import { canAny, type Actor } from '@server/domain/access/actor';
import type { ActorCtx, Ctx } from '@server/domain/context';
import { isDomainError, NotFound, ValidationFailed } from '@server/domain/errors';
import { readTypedDays } from '@server/domain/typed-days';
import { clearCookie, readCookie, serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { fieldErrorsOf, langOf, notFound, requireGuest, requireUser } from '~/lib/guards.server';
import type { ActionAnswer, PendingConfirmation, Toast, ToastType } from '~/lib/actions';

/**
 * The page kit's server half (docs/page-kit.md): every action answers one shape (ActionAnswer), domain
 * refusals are mapped here once, and a toast after a redirect travels in a flash cookie the root loader
 * reads and clears.
 */

/** Fields never echoed back into a form after a refusal. */
const HIDDEN_FIELDS = ['password', 'pin', 'password_confirmation', 'current_password'];

const FORBIDDEN = 'errors.forbidden';
const INVALID = 'errors.invalid_data';

/**
 * Who may send the form: a signed-in user (the default; each intent names its permission) or a guest (the
 * sign-in, invitation and password pages; a signed-in user is sent home).
 */
export type Access = 'user' | 'guest';
type CtxFor<A extends Access> = A extends 'guest' ? Ctx : ActorCtx;

export interface RedirectOptions {
  type?: ToastType;
  /** More headers for the redirect (a session cookie set by a sign-in, say). */
  headers?: HeadersInit;
}

/** The address parameters a handler gets: parsed with the definition's `params` schema, else as Remix gives them. */
type ParamsOf<P> = P extends z.ZodTypeAny ? z.infer<P> : Params;

export interface HandlerArgs<C extends Ctx = ActorCtx, P = undefined> {
  ctx: C;
  request: Request;
  context: AppLoadContext;
  params: ParamsOf<P>;
  /** The form as sent (files a schema does not parse, say). */
  formData: FormData;
  lang: string;
  /** A redirect to a page (the path without language prefix), with a toast shown there once. */
  redirect: (path: string, toast?: string, options?: RedirectOptions) => TypedResponse<never>;
}

/** What a handler gives back: a Response (usually `redirect`) or what to answer while staying on the page. */
export type Handled<D> = TypedResponse<never> | { toast?: string; data?: D } | void;

/** What a question made from the input reads: a signed-in user's context (guests' forms never ask). */
type QuestionArgs = HandlerArgs<ActorCtx, z.ZodTypeAny | undefined>;

/**
 * What a destructive or money-moving operation asks before it acts (docs/page-kit.md, "A confirmation
 * step"). A post without `confirmed=1` does nothing and answers the question: the shell shows it as a step
 * with the same fields (without JavaScript); a scripted page asks in the browser (ConfirmButton) and posts
 * `confirmed=1` at once. The API has no such step.
 */
export interface ConfirmDefinition<I = never> {
  /**
   * The question, naming what the operation acts on: a message (`msg(key, params)`), or one made from the
   * parsed input (a count, a name looked up). It runs after the fields parsed and the permission held.
   */
  question: string | ((input: I, args: QuestionArgs) => string | Promise<string>);
  /** The text of the button that acts (a message key); 'confirm.confirm' when absent. */
  button?: string;
  /** 'danger' (the default: it removes or undoes something) or 'primary' (it moves money as asked). */
  tone?: 'danger' | 'primary';
  /** Asks only for some values of the intent (a status move that deletes); always when absent. */
  when?: (input: I) => boolean;
}

/** One intent: the schema of its fields (the `intent` field aside) and its permission. */
export interface IntentDefinition {
  schema: z.ZodTypeAny;
  /** A pipe-separated list of permissions, any one of which allows the intent; null: no permission (guests). */
  permission: string | null;
  /** A message said above the intent's form whenever it is refused (see FormActionDefinition.formError). */
  formError?: string;
  /**
   * Asks before acting (see ConfirmDefinition). The question's input is typed loosely here (an intent's
   * schema is not known to this interface): a question made from the input reads it as its schema parses.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  confirm?: ConfirmDefinition<any>;
}

/** The handler's input: a discriminated union of the intents' parsed fields, tagged by `intent`. */
export type IntentInput<M extends Record<string, IntentDefinition>> = {
  [K in keyof M & string]: { intent: K } & z.infer<M[K]['schema']>;
}[keyof M & string];

/**
 * The page a form came from, for a route with no page of its own (an `actions.*` resource route): the
 * path as the browser had it (with its language prefix).
 */
export type ReturnTo = (request: Request, formData: FormData) => string;

export interface IntentActionDefinition<
  M extends Record<string, IntentDefinition>,
  D,
  A extends Access,
  P extends z.ZodTypeAny | undefined,
> {
  access?: A;
  /** The address parameters' schema (`idSchema`, `rowIdSchema`): parameters that do not parse are the 404 page. */
  params?: P;
  returnTo?: ReturnTo;
  intents: M;
  /** Handles the parsed input; write it as an exhaustive `switch (input.intent)` ending in `unreachable`. */
  handle: (input: IntentInput<M>, args: HandlerArgs<CtxFor<A>, P>) => Promise<Handled<D>>;
}

export interface FormActionDefinition<
  S extends z.ZodTypeAny,
  D,
  A extends Access,
  P extends z.ZodTypeAny | undefined,
> {
  access?: A;
  /** The address parameters' schema (`idSchema`, `rowIdSchema`): parameters that do not parse are the 404 page. */
  params?: P;
  /**
   * For a route with no page of its own: posted without JavaScript (a document request), the answer
   * goes back to this page as a redirect, a refusal's message as an error toast and a success's toast
   * as is; a fetcher still gets the answer.
   */
  returnTo?: ReturnTo;
  schema: S;
  /** A pipe-separated list of permissions (any one allows it); null: any signed-in user, or a guest. */
  permission: string | null;
  /**
   * A message said above the form whenever it is refused (its fields did not parse, or the domain refused
   * it), as a form that must say 'Unable to save ...' does; the refusal's own messages stay where they are.
   */
  formError?: string;
  /** Asks before acting: a destructive or money-moving operation (see ConfirmDefinition). */
  confirm?: ConfirmDefinition<z.infer<S>>;
  handle: (input: z.infer<S>, args: HandlerArgs<CtxFor<A>, P>) => Promise<Handled<D>>;
}

type ActionResult<D> = Promise<TypedResponse<never> | TypedResponse<ActionAnswer<D>>>;

/**
 * A page action with several operations behind an `intent` field, each with its own schema and
 * permission. An intent the page does not define is refused as invalid data.
 */
export function intentAction<
  M extends Record<string, IntentDefinition>,
  D = never,
  A extends Access = 'user',
  P extends z.ZodTypeAny | undefined = undefined,
>(def: IntentActionDefinition<M, D, A, P>) {
  return async (args: ActionFunctionArgs): ActionResult<D> => {
    const formData = await args.request.formData();
    const intent = formData.get('intent');
    const entry =
      typeof intent === 'string' && Object.hasOwn(def.intents, intent) ? def.intents[intent] : null;
    const answered = await run(
      args,
      def.access ?? 'user',
      def.params,
      formData,
      intent as string | null,
      entry,
      (value, handlerArgs) =>
        def.handle(
          { ...(value as object), intent } as IntentInput<M>,
          // One runner serves every access kind: the guard above made ctx what CtxFor<A> says, and params what P parses to.
          handlerArgs as unknown as HandlerArgs<CtxFor<A>, P>,
        ),
      def.returnTo,
    );
    return def.returnTo ? goBack(args, formData, def.returnTo, answered) : answered;
  };
}

/** A page action with one operation (a single form). */
export function formAction<
  S extends z.ZodTypeAny,
  D = never,
  A extends Access = 'user',
  P extends z.ZodTypeAny | undefined = undefined,
>(def: FormActionDefinition<S, D, A, P>) {
  return async (args: ActionFunctionArgs): ActionResult<D> => {
    const formData = await args.request.formData();
    const answered = await run(
      args,
      def.access ?? 'user',
      def.params,
      formData,
      null,
      { schema: def.schema, permission: def.permission, formError: def.formError, confirm: def.confirm },
      (value, handlerArgs) =>
        // One runner serves every access kind: the guard above made ctx what CtxFor<A> says, and params what P parses to.
        def.handle(value as z.infer<S>, handlerArgs as unknown as HandlerArgs<CtxFor<A>, P>),
      def.returnTo,
    );
    return def.returnTo ? goBack(args, formData, def.returnTo, answered) : answered;
  };
}

async function run<D>(
  { request, context, params }: ActionFunctionArgs,
  access: Access,
  paramsSchema: z.ZodTypeAny | undefined,
  formData: FormData,
  intent: string | null,
  entry: IntentDefinition | null,
  handle: (input: never, args: HandlerArgs<Ctx, z.ZodTypeAny | undefined>) => Promise<Handled<D>>,
  returnTo?: ReturnTo,
): ActionResult<D> {
  const ctx: Ctx = access === 'guest' ? requireGuest(request, context) : requireUser(request, context);
  const lang = langOf(request);
  let parsedParams: unknown = params;
  if (paramsSchema) {
    const parsed = paramsSchema.safeParse(params);
    if (!parsed.success) throw notFound();
    parsedParams = parsed.data;
  }
  if (!entry) return answer<D>(context, { intent, ok: false, error: INVALID }, 400);
  if (entry.permission !== null && (!ctx.actor || !canAny(ctx.actor as Actor, entry.permission))) {
    return answer<D>(context, { intent, ok: false, error: FORBIDDEN }, 403);
  }
  // Days typed as the pages write them (DD/MM/YYYY) are read into YYYY-MM-DD for the schema and the handler.
  const typed = readTypedDays(formData, entry.schema);
  const submission = parseWithZod(typed, { schema: entry.schema });
  const formError = entry.formError;
  if (submission.status !== 'success') {
    // No status: a Conform intent ("Add another", "Remove") without JavaScript, not a refusal.
    const formErrors = submission.status === 'error' && formError ? [formError] : undefined;
    return answer<D>(
      context,
      { intent, ok: false, submission: submission.reply({ formErrors, hideFields: HIDDEN_FIELDS }) },
      400,
    );
  }
  const handlerArgs: HandlerArgs<Ctx, z.ZodTypeAny | undefined> = {
    ctx,
    request,
    context,
    params: parsedParams as Params,
    formData: typed,
    lang,
    redirect: (path, toast, options) => redirectWithToast(context, lang, path, toast, options),
  };
  try {
    const asks = entry.confirm && (!entry.confirm.when || entry.confirm.when(submission.value));
    if (entry.confirm && asks && typed.get(CONFIRMED) !== '1') {
      const confirm = await confirmationOf(entry.confirm, submission.value, handlerArgs, returnTo);
      // A document request renders the page after this action: the shell reads the question from here.
      context.confirmation = confirm;
      return answer<D>(context, { intent, ok: false, confirm }, 200);
    }
    const handled = await handle(submission.value as never, handlerArgs);
    if (handled instanceof Response) return handled as TypedResponse<never>;
    const stay = handled as { toast?: string; data?: D } | undefined;
    // Without JavaScript a toast with nothing else to show goes through one redirect back to the same page
    // (a reload then does not post the form again); a toast with data is shown by the page that carries
    // the data, rendered in this same request (see `answer`).
    if (stay?.toast && !context.dataRequest && (stay.data === undefined || returnTo)) {
      return redirectBack(context, returnTo ? returnTo(request, formData) : ownPath(request), stay.toast);
    }
    return answer<D>(context, { intent, ok: true, data: stay?.data ?? null }, 200, stay?.toast);
  } catch (e) {
    const refused = refusalOf(e, submission, formError);
    if (!refused) throw e;
    return answer<D>(
      context,
      { intent, ok: false, ...(refused.answer as Partial<ActionAnswer<D>>) },
      refused.status,
    );
  }
}

/** The field a confirmed post carries (the confirmation step's form, ConfirmButton's dialog). */
export const CONFIRMED = 'confirmed';

/** The question an unconfirmed post answers, with what the confirmation step posts again. */
async function confirmationOf(
  def: ConfirmDefinition<unknown>,
  input: unknown,
  args: HandlerArgs<Ctx, z.ZodTypeAny | undefined>,
  returnTo?: ReturnTo,
): Promise<PendingConfirmation> {
  const question =
    typeof def.question === 'function' ? await def.question(input, args as QuestionArgs) : def.question;
  const url = new URL(args.request.url);
  url.searchParams.delete('_data');
  const fields: [string, string][] = [];
  const files: PendingConfirmation['files'] = [];
  for (const [name, value] of args.formData) {
    if (name === '_csrf' || name === CONFIRMED) continue;
    if (typeof value === 'string') fields.push([name, value]);
    else if (value.size > 0) files.push({ name, file: value.name });
  }
  return {
    question,
    button: def.button ?? 'confirm.confirm',
    tone: def.tone ?? 'danger',
    action: `${url.pathname}${url.search}`,
    back: returnTo ? returnTo(args.request, args.formData) : ownPath(args.request),
    fields,
    files,
  };
}

/**
 * A route with no page of its own, posted without JavaScript: its answer goes back to the page the form
 * came from. A redirect stays as it is; a refusal goes back with its message as an error toast (a form
 * that did not parse: the invalid-data message), a success with the toast it set, if any.
 */
async function goBack<D>(
  { request, context }: ActionFunctionArgs,
  formData: FormData,
  returnTo: ReturnTo,
  answered: TypedResponse<never> | TypedResponse<ActionAnswer<D>>,
): ActionResult<D> {
  if (context.dataRequest || (answered.status >= 300 && answered.status < 400)) return answered;
  const body = (await answered.clone().json()) as ActionAnswer<D>;
  const headers = new Headers(answered.headers);
  headers.delete('content-type');
  if (!body.ok) headers.append('set-cookie', toastCookie(context, body.error ?? INVALID, 'error'));
  return redirect(returnTo(request, formData), { headers });
}

/**
 * Domain errors as a page shows them: a refusal's field messages on their fields, any other domain error
 * as the error notice (and the form's own error); NotFound is the 404 page, as for a loader. Anything
 * else is a real failure and is not mapped (the error page).
 */
function refusalOf(
  e: unknown,
  submission: Submission<unknown>,
  formError?: string,
): { answer: Partial<ActionAnswer>; status: number } | null {
  if (e instanceof NotFound) throw notFound();
  if (e instanceof ValidationFailed) {
    return {
      answer: {
        submission: submission.reply({
          fieldErrors: fieldErrorsOf(e),
          formErrors: formError ? [formError] : undefined,
          hideFields: HIDDEN_FIELDS,
        }),
        error: e.message,
      },
      status: 400,
    };
  }
  if (!isDomainError(e)) return null;
  const message = e.status === 403 ? FORBIDDEN : e.message;
  return {
    answer: {
      submission: submission.reply({
        formErrors: formError && formError !== message ? [formError, message] : [message],
        hideFields: HIDDEN_FIELDS,
      }),
      error: message,
    },
    status: e.status,
  };
}

/**
 * The action's answer. Its toast goes where the page that reads the answer finds it: the page's scripts
 * load the page's data in a request of their own after the action, so the toast travels in the flash
 * cookie; a browser without JavaScript gets the page in this very request, so the toast is handed to the
 * root loader here, and no cookie is left to show it again one page later.
 */
function answer<D>(
  context: AppLoadContext,
  fields: Partial<ActionAnswer<D>> & { intent: string | null; ok: boolean },
  status: number,
  toast?: string,
): TypedResponse<ActionAnswer<D>> {
  const body: ActionAnswer<D> = { submission: null, error: null, data: null, confirm: null, ...fields };
  const headers = new Headers();
  if (toast && context.dataRequest) headers.append('set-cookie', toastCookie(context, toast, 'success'));
  else if (toast) context.answeredToast = newToast(toast, 'success');
  return json(body, { status, headers });
}

function newToast(message: string, type: ToastType): Toast {
  return { id: crypto.randomUUID(), type, message };
}

function toastCookie(context: AppLoadContext, message: string, type: ToastType): string {
  return serializeCookie(context.env, 'toast', JSON.stringify(newToast(message, type)));
}

/**
 * For the rare operation whose refusal the spec says to pass over in silence (a cart deletion that
 * fails shows the cart as it is): a domain refusal becomes false, anything else still fails.
 */
export async function ignoreRefusal(run: Promise<unknown>): Promise<boolean> {
  try {
    await run;
    return true;
  } catch (e) {
    if (isDomainError(e) && !(e instanceof NotFound)) return false;
    throw e;
  }
}

/** The page that posted: its own address and query, Remix's `index` marker left out. */
function ownPath(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete('index');
  url.searchParams.delete('_data');
  const query = url.searchParams.toString();
  return `${url.pathname}${query ? `?${query}` : ''}`;
}

/** A page again (a path as the browser has it), with a toast. */
function redirectBack(context: AppLoadContext, path: string, toast: string): TypedResponse<never> {
  return redirect(path, { headers: { 'set-cookie': toastCookie(context, toast, 'success') } });
}

/** A redirect to a page of the user's language with a toast shown there once (the flash cookie). */
export function redirectWithToast(
  context: AppLoadContext,
  lang: string,
  path: string,
  toast?: string,
  { type = 'success', headers: more }: RedirectOptions = {},
): TypedResponse<never> {
  const headers = new Headers(more);
  if (toast) headers.append('set-cookie', toastCookie(context, toast, type));
  return redirect(localePath(lang, path), { headers });
}

/**
 * The root loader's read of the toast to show: the one an action answered in this same request, else the
 * flash cookie's; and the header that clears the cookie.
 */
export function takeToast(
  request: Request,
  context: AppLoadContext,
): { toast: Toast | null; clear: string | null } {
  const answered = context.answeredToast ?? null;
  const raw = readCookie(request, context.env, 'toast');
  if (raw === null) return { toast: answered, clear: null };
  let toast: Toast | null = answered;
  try {
    const parsed = JSON.parse(raw) as Partial<Toast>;
    if (!answered && typeof parsed.id === 'string' && typeof parsed.message === 'string') {
      const type: ToastType = parsed.type === 'error' || parsed.type === 'info' ? parsed.type : 'success';
      toast = { id: parsed.id, type, message: parsed.message };
    }
  } catch {
    // a cookie that does not parse is dropped
  }
  return { toast, clear: clearCookie(context.env, 'toast') };
}
