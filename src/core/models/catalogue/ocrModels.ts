/*
 * The OCR models Quire downloads: Tesseract's "fast" LSTM models (tessdata_fast, the ones Debian's
 * CLI reads with), one uncompressed `<code>.traineddata` per language. No npm package carries them,
 * so they come from the GitHub repository, pinned to one commit, and every file to its size and
 * sha256. On Quire's OCR bench the fast English model reads at 1.04-1.26x the CLI's speed against
 * 0.70-0.86x with the packaged best_int one, at the same word error rate (DESIGN.md).
 *
 * The sha256 values were computed from the blobs of that commit; GitHub states no hash for a raw
 * file, so the pinned value is the only check. Never fill one in by hand.
 */

export const OCR_MODEL_ID = 'tesseract-fast';
export const OCR_MODEL_LABEL = 'Tesseract fast model';
export const OCR_MODEL_REPOSITORY = 'tesseract-ocr/tessdata_fast';
export const OCR_MODEL_REVISION = '87416418657359cb625c412a48b6e1d6d41c29bd';
export const OCR_MODEL_LICENCE = 'Apache-2.0';
/** Where GitHub serves a repository's files as they are (no redirect, byte ranges honoured). */
export const GITHUB_RAW_ENDPOINT = 'https://raw.githubusercontent.com';

export interface OcrModelFile {
  /** Tesseract's language code, e.g. `eng`. */
  language: string;
  sizeBytes: number;
  sha256: string;
}

/** The languages whose fast model Quire offers; others are read with the packaged model only. */
export const OCR_MODEL_FILES: readonly OcrModelFile[] = [
  {
    language: 'eng',
    sizeBytes: 4_113_088,
    sha256: '7d4322bd2a7749724879683fc3912cb542f19906c83bcc1a52132556427170b2',
  },
  {
    language: 'fra',
    sizeBytes: 1_130_365,
    sha256: 'ced037562e8c80c13122dece28dd477d399af80911a28791a66a63ac1e3445ca',
  },
  {
    language: 'deu',
    sizeBytes: 1_525_436,
    sha256: '19d219bbb6672c869d20a9636c6816a81eb9a71796cb93ebe0cb1530e2cdb22d',
  },
  {
    language: 'spa',
    sizeBytes: 2_294_433,
    sha256: '6f2e04d02774a18f01bed44b1111f2cd7f3ba7ac9dc4373cd3f898a40ea6b464',
  },
  {
    language: 'ita',
    sizeBytes: 2_701_314,
    sha256: 'b8f89e1e785118dac4d51ae042c029a64edb5c3ee42ef73027a6d412748d8827',
  },
  {
    language: 'por',
    sizeBytes: 1_982_756,
    sha256: 'c4932b937207a9514b7514d518b931a99938c02a28a5a5a553f8599ed58b7deb',
  },
];

export function ocrModelFile(language: string): OcrModelFile | undefined {
  return OCR_MODEL_FILES.find((file) => file.language === language);
}

/** The file's name in the repository (and in its folder under the models folder). */
export function ocrModelFileName(language: string): string {
  return `${language}.traineddata`;
}

/** The folder of the models folder the fast models go in: the folder Tesseract is given. */
export function ocrModelFolderName(): string {
  return OCR_MODEL_ID;
}

/** Where a language's file is served at the pinned commit. */
export function ocrModelUrl(language: string, endpoint: string = GITHUB_RAW_ENDPOINT): string {
  return `${endpoint.replace(/\/+$/, '')}/${OCR_MODEL_REPOSITORY}/${OCR_MODEL_REVISION}/${ocrModelFileName(language)}`;
}
