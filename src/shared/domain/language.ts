/*
 * Languages are ISO 639-3 codes (what the detector returns: `deu`, `eng`, `cmn`); `und` means the
 * text was too short, or not prose enough, to tell.
 */

export const UNDETERMINED_LANGUAGE = 'und';

const names = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  } catch {
    return null;
  }
})();

/** "German" for `deu`; null for `und`, null or a code nothing can name. */
export function languageName(code: string | null | undefined): string | null {
  if (!code || code === UNDETERMINED_LANGUAGE) return null;
  try {
    return names?.of(code) ?? null;
  } catch {
    return null;
  }
}
