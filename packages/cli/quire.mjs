#!/usr/bin/env node
// Runs the CLI's build (out/cli/quire.js, made at install by `prepare`): no transpiling at each run.
// A source edited since is rebuilt first (build.mjs).
import { cliEntry } from './build.mjs';

// LanceDB reads its log level once, when it loads: a shared library's s3+ddb:// opens each log a
// warning the user can do nothing about, so those are quiet unless LANCEDB_LOG asks otherwise.
if (process.argv.includes('--library')) process.env.LANCEDB_LOG ??= 'error';
await import(await cliEntry());
