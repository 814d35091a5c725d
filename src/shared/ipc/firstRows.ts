/**
 * The library's first rows: enough for a tall window, listed before the rest so they paint at once.
 * `quire serve` writes them into the page it serves, as a JSON block with this id, so a browser has
 * them before the app's script has even run; a window whose page came without them asks for as many.
 */
export const FIRST_ROWS = 60;

export const FIRST_ROWS_ELEMENT_ID = 'quire-first-rows';
