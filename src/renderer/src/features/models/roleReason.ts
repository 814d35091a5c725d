/**
 * A role's reason as the app shows it: the engine's sentence without the terminal commands it adds
 * for the CLI (`quire models setup`, `ollama pull …`, `--flags`). The app offers the setup instead.
 */

/** Where the engine's advice starts in a reason; what follows is for a terminal. */
const ADVICE_STARTS = [
  ' Until it is replaced, ',
  ': Set up models (`',
  '; Set up models (`',
  ': run `quire',
  '; run `quire',
  ': page-image search needs',
  '; page-image search needs',
];

export function reasonForApp(reason: string): string {
  const cuts = ADVICE_STARTS.map((start) => reason.indexOf(start)).filter((index) => index >= 0);
  const kept = cuts.length > 0 ? reason.slice(0, Math.min(...cuts)) : reason;
  // Model names the engine quotes for a terminal read as plain names here.
  const plain = kept.replaceAll('`', '').trim();
  return /[.!?]$/.test(plain) ? plain : `${plain}.`;
}
