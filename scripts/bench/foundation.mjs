// Foundation figures: the sign-in page (server-rendered), sign-in over the API (password hashing
// dominates), and an authenticated API read (session + actor resolution), in local workerd.
import { lastPin, stats, time } from './server.mjs';

export async function foundation({ base }) {
  const rows = [];
  const login = [];
  for (let i = 0; i < 100; i++)
    login.push(await time(async () => (await fetch(`${base}/auth/login`)).text()));
  rows.push(['GET /auth/login (SSR)', stats(login)]);

  const email = 'admin@demo.test';
  const body = JSON.stringify({ email, password: 'Demo-Passw0rd!' });
  const headers = { 'content-type': 'application/json' };
  const signIn = [];
  signIn.push(
    await time(async () =>
      (await fetch(`${base}/api/company/auth/sign-in`, { method: 'POST', headers, body })).text(),
    ),
  );
  const pin = await lastPin(base, email);
  let token = '';
  signIn.push(
    await time(async () => {
      const res = await fetch(`${base}/api/company/auth/sign-in`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email, password: 'Demo-Passw0rd!', pin }),
      });
      token = (await res.json()).data.token;
    }),
  );
  rows.push(['POST /api/company/auth/sign-in (password, then PIN)', stats(signIn)]);

  const get = [];
  for (let i = 0; i < 200; i++)
    get.push(
      await time(async () =>
        (
          await fetch(`${base}/api/company/auth/get`, { headers: { authorization: `Bearer ${token}` } })
        ).text(),
      ),
    );
  rows.push(['GET /api/company/auth/get (bearer)', stats(get)]);
  return rows;
}
