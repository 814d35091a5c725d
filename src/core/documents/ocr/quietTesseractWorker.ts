import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Set to 1, Tesseract's and Leptonica's own messages are written to stderr, marked as theirs. */
export const OCR_DEBUG_ENV = 'QUIRE_DEBUG_OCR';

/**
 * tesseract.js's worker thread, with its console taken over before Tesseract loads. Leptonica writes
 * its complaints about odd regions of a page ("Error in boxClipToRectangle: box outside rectangle")
 * to the console, dozens per scanned library; they are not failures (a page that cannot be read
 * rejects its job, and Quire reports that), so they are dropped unless QUIRE_DEBUG_OCR=1.
 *
 * The WebAssembly module binds `console.error` when it loads, so the console must be replaced first:
 * the worker is started from this small module (a data: URL, so no extra file has to ship), which
 * then loads tesseract.js's own worker script.
 */
export function quietWorkerUrl(): URL {
  const script = require.resolve('tesseract.js/src/worker-script/node/index.js');
  const source = `
import { createRequire } from 'node:module';
const debug = process.env[${JSON.stringify(OCR_DEBUG_ENV)}] === '1';
const say = (...parts) => { if (debug) process.stderr.write('tesseract: ' + parts.join(' ') + '\\n'); };
console.log = console.info = console.warn = console.error = console.debug = say;
createRequire(${JSON.stringify(script)})(${JSON.stringify(script)});
`;
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}
