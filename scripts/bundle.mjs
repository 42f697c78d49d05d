// `node scripts/bundle.mjs`: bundles build/ into the Worker the local runtime serves
// (scripts/local-runtime.mjs), once for several runtimes started beside each other (the browser tests).
import { bundle } from './local-runtime.mjs';

bundle();
