/*
 * Languages are ISO 639-3 codes (what the detector returns: `deu`, `eng`, `cmn`); `und` means the
 * text was too short, or not prose enough, to tell.
 */

export const UNDETERMINED_LANGUAGE = 'und';

// Made on first use: building it loads the locale's language names, about 100 ms that a command
// which never names a language (most of them) should not pay at start.
let names: Intl.DisplayNames | null | undefined;
function displayNames(): Intl.DisplayNames | null {
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    } catch {
      names = null;
    }
  }
  return names;
}

/** "German" for `deu`; null for `und`, null or a code nothing can name. */
export function languageName(code: string | null | undefined): string | null {
  if (!code || code === UNDETERMINED_LANGUAGE) return null;
  try {
    return displayNames()?.of(code) ?? null;
  } catch {
    return null;
  }
}
