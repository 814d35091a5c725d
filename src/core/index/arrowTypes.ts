import { createRequire } from 'node:module';
import type * as Arrow from 'apache-arrow';

/*
 * Apache Arrow as LanceDB loads it. LanceDB requires Arrow's CommonJS build; an `import` of Arrow from
 * an ES module gets its separate ES build, so a process held both: two sets of classes for the same
 * schemas, and about 150 ms more at each start (a `quire search` starts in under a second). Taking
 * Arrow through `require` keeps one copy, the one LanceDB checks schemas against.
 */
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof Arrow;

export const { Binary, Bool, Field, FixedSizeList, Float32, Float64, Int32, Schema, Utf8 } = arrow;
