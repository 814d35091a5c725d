/** The parts of electronegativity's programmatic API the audit uses (the package ships no types). */
declare module '@doyensec/electronegativity' {
  interface Level {
    value: number;
    name: string;
  }
  export interface Issue {
    id: string;
    file: string;
    location: { line: number; column: number };
    description: string;
    severity: Level;
    confidence: Level;
    manualReview: boolean;
  }
  export interface RunOptions {
    input: string;
    isRelative?: boolean;
    electronVersionOverride?: string;
    excludeFromScan?: string[];
    customScan?: string[];
    parserPlugins?: string[];
  }
  export default function run(
    options: RunOptions,
  ): Promise<{ issues: Issue[]; errors: Array<{ file: string; message: string; tolerable: boolean }> }>;
}
