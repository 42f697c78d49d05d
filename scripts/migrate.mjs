// `npm run db:migrate` (UK) / `npm run db:migrate -- ie`: applies the migrations in drizzle/migrations
// that the region's local D1 has not had yet, e.g. one just generated with `npm run db:generate`, while
// `npm run dev` keeps serving. (`npm start` applies them itself; deployed regions: docs/deploy.md.)
import { applyMigrations, regionArg } from './local-db.mjs';

applyMigrations(regionArg(process.argv.slice(2)));
