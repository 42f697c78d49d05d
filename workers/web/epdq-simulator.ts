import { Hono, type Context } from 'hono';
import type { Env } from '../env';
import { isProduction } from '../env';
import { createDb } from '../platform/db';
import { randomDigits } from '../platform/crypto';
import { answerAmount, normaliseParams, signOut, verifyIn } from '../platform/epdq';
import { recordCardResult } from '../domain/payments/service';

/**
 * A stand-in for Barclaycard ePDQ's hosted payment page, present only outside production (like the
 * development mailbox), so the whole checkout runs end to end with no network. EPDQ_URL points here
 * locally and in tests (`/dev/epdq/orderstandard_utf8.asp`).
 *
 * It behaves as ePDQ does: the checkout's form is refused unless its SHA-IN signature is right; the card
 * page takes a test card (4111 1111 1111 1111 is paid, 4000 0000 0000 0002 is declined; "Decline"
 * declines whatever the card); the answer is signed with SHA-OUT, posted to our server-to-server
 * notification route first, then the browser is sent to the accept, decline or cancel address with the
 * same signed parameters. It stands for a site of its own, so its texts are not translated.
 */
export const epdqSimulator = new Hono<{ Bindings: Env }>()
  .use('*', async (c, next) => {
    if (isProduction(c.env)) return c.notFound();
    await next();
  })
  .post('/orderstandard_utf8.asp', async (c) => {
    const params = await formParams(c);
    if (!(await verifyIn(params, c.env.EPDQ_SHA_IN)))
      return c.html(
        page(
          'Payment refused',
          `<p class="error">unknown order/1/s — the SHA-IN signature does not match.</p>`,
        ),
        400,
      );
    return c.html(cardPage(params));
  })
  .post('/pay', async (c) => {
    const form = await formParams(c);
    const {
      CARD_NUMBER = '',
      CARD_EXPIRY = '',
      CARD_CVC = '',
      CARD_NAME = '',
      SIM_ACTION = 'pay',
      ...order
    } = form;
    if (!(await verifyIn(order, c.env.EPDQ_SHA_IN)))
      return c.html(
        page('Payment refused', `<p class="error">The order was changed after it was signed.</p>`),
        400,
      );
    const card = CARD_NUMBER.replace(/[\s-]/g, '');
    let status: '9' | '2';
    if (SIM_ACTION === 'decline') status = '2';
    else {
      const problem =
        card === '4111111111111111' || card === '4000000000000002'
          ? !/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/.test(CARD_EXPIRY.trim())
            ? 'Enter the expiry date as MM/YY.'
            : !/^\d{3,4}$/.test(CARD_CVC.trim())
              ? 'Enter the 3 or 4 digits of the security code.'
              : null
          : 'Use a test card: 4111 1111 1111 1111 (paid) or 4000 0000 0000 0002 (declined).';
      if (problem)
        return c.html(
          cardPage(order, problem, { number: CARD_NUMBER, expiry: CARD_EXPIRY, name: CARD_NAME }),
          422,
        );
      status = card === '4111111111111111' ? '9' : '2';
    }
    const now = new Date();
    const answer: Record<string, string> = {
      orderID: order.ORDERID ?? '',
      currency: order.CURRENCY ?? '',
      amount: answerAmount(Number(order.AMOUNT ?? '0')),
      PM: 'CreditCard',
      ACCEPTANCE: status === '9' ? `SIM${randomDigits(6)}` : '',
      STATUS: status,
      CARDNO: card ? `XXXXXXXXXXXX${card.slice(-4)}` : '',
      ED: CARD_EXPIRY.replace(/\D/g, ''),
      CN: CARD_NAME.trim(),
      TRXDATE: `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String(now.getUTCDate()).padStart(2, '0')}/${String(now.getUTCFullYear()).slice(2)}`,
      PAYID: randomDigits(10),
      NCERROR: status === '9' ? '0' : '30001001',
      BRAND: 'VISA',
      IP: c.req.header('cf-connecting-ip') ?? '127.0.0.1',
    };
    answer.SHASIGN = await signOut(answer, c.env.EPDQ_SHA_OUT);
    await notify(c.env, answer);
    const target = status === '9' ? order.ACCEPTURL : order.DECLINEURL;
    if (!target) return c.html(page('Payment done', `<p>Status ${status}. No return address was given.</p>`));
    const url = new URL(target);
    for (const [k, v] of Object.entries(answer)) url.searchParams.set(k, v);
    return c.redirect(url.toString(), 303);
  })
  .post('/cancel', async (c) => {
    const order = await formParams(c);
    if (!(await verifyIn(order, c.env.EPDQ_SHA_IN)))
      return c.html(
        page('Payment refused', `<p class="error">The order was changed after it was signed.</p>`),
        400,
      );
    const answer: Record<string, string> = {
      orderID: order.ORDERID ?? '',
      currency: order.CURRENCY ?? '',
      amount: answerAmount(Number(order.AMOUNT ?? '0')),
      STATUS: '1',
      PAYID: randomDigits(10),
      NCERROR: '0',
    };
    answer.SHASIGN = await signOut(answer, c.env.EPDQ_SHA_OUT);
    await notify(c.env, answer);
    const url = new URL(order.CANCELURL || order.DECLINEURL);
    for (const [k, v] of Object.entries(answer)) url.searchParams.set(k, v);
    return c.redirect(url.toString(), 303);
  });

async function formParams(c: Context<{ Bindings: Env }>): Promise<Record<string, string>> {
  const form = await c.req.parseBody();
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * The server-to-server notification, as ePDQ sends it: a form post to our notification route. If our own
 * address cannot be reached from here (a local host name the runtime does not resolve), the answer is
 * handed to the same domain function directly, so a run without network still records it.
 */
async function notify(env: Env, answer: Record<string, string>) {
  try {
    const res = await fetch(new URL('/payment/barclaycard/notify', env.PUBLIC_URL), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(answer).toString(),
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    if (res.ok) return;
    console.warn(`ePDQ simulator: the notification answered ${res.status}`);
  } catch (e) {
    console.warn('ePDQ simulator: the notification could not be posted; recording it directly', e);
    try {
      await recordCardResult(createDb(env.DB), env, answer, { source: 'notification' });
    } catch (err) {
      console.warn('ePDQ simulator: the notification was refused', err);
    }
  }
}

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} — ePDQ simulator</title>
<style>
body{font-family:system-ui,sans-serif;background:#eef2f7;margin:0;color:#0f172a}
header{background:#00395d;color:#fff;padding:14px 20px;font-weight:700}
header small{font-weight:400;opacity:.8;margin-left:8px}
main{max-width:440px;margin:24px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px #0002}
h1{font-size:20px;margin:0 0 12px}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 16px;margin:0 0 20px;font-size:14px}
dt{color:#475569}dd{margin:0;font-weight:600}
label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}
input{box-sizing:border-box;width:100%;padding:10px;border:1px solid #94a3b8;border-radius:8px;font-size:16px}
.row{display:flex;gap:12px}.row>div{flex:1}
.actions{display:flex;gap:12px;margin-top:20px;flex-wrap:wrap}
button{padding:10px 18px;border-radius:8px;border:0;font-size:15px;font-weight:700;cursor:pointer}
.pay{background:#00395d;color:#fff}.decline{background:#fff;color:#991b1b;border:1px solid #991b1b}
.error{background:#fef2f2;color:#991b1b;padding:10px;border-radius:8px}
.hint{font-size:13px;color:#475569}
</style></head><body><header>Barclaycard ePDQ<small>test payment page (simulator)</small></header><main>${body}</main></body></html>`;
}

function cardPage(
  order: Record<string, string>,
  problem?: string,
  typed: { number?: string; expiry?: string; name?: string } = {},
): string {
  const p = normaliseParams(order);
  const amount = (Number(p.AMOUNT ?? '0') / 100).toFixed(2);
  const hidden = Object.entries(order)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(v)}">`)
    .join('');
  return page(
    'Pay by card',
    `<h1>Pay by card</h1>
<dl><dt>Merchant</dt><dd>${escape(p.PSPID ?? '')}</dd><dt>Order</dt><dd data-testid="sim-order">${escape(p.ORDERID ?? '')}</dd>
<dt>Amount</dt><dd data-testid="sim-amount">${escape(amount)} ${escape(p.CURRENCY ?? '')}</dd></dl>
${problem ? `<p class="error" role="alert">${escape(problem)}</p>` : ''}
<form method="post" action="pay">${hidden}
<label for="CARD_NAME">Cardholder name</label><input id="CARD_NAME" name="CARD_NAME" autocomplete="cc-name" value="${escape(typed.name ?? '')}">
<label for="CARD_NUMBER">Card number</label><input id="CARD_NUMBER" name="CARD_NUMBER" inputmode="numeric" autocomplete="cc-number" value="${escape(typed.number ?? '')}">
<div class="row"><div><label for="CARD_EXPIRY">Expiry date (MM/YY)</label><input id="CARD_EXPIRY" name="CARD_EXPIRY" placeholder="MM/YY" autocomplete="cc-exp" value="${escape(typed.expiry ?? '')}"></div>
<div><label for="CARD_CVC">Security code</label><input id="CARD_CVC" name="CARD_CVC" inputmode="numeric" autocomplete="cc-csc"></div></div>
<p class="hint">Test cards: 4111 1111 1111 1111 is paid; 4000 0000 0000 0002 is declined.</p>
<div class="actions"><button class="pay" type="submit" name="SIM_ACTION" value="pay">Pay</button>
<button class="decline" type="submit" name="SIM_ACTION" value="decline">Decline</button></div>
</form>
<form method="post" action="cancel">${hidden}<div class="actions"><button class="decline" type="submit">Cancel payment</button></div></form>`,
  );
}
