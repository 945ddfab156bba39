#!/usr/bin/env node
// The CLI and the daemon run from dist/bundle/ (scripts/bundle.mjs: a few files load much faster
// than hundreds). Its source maps turn stack traces back into src/ lines, at the cost of reading
// each loaded chunk's map: on for the daemon, whose log keeps stack traces; a short command gets
// them with NODE_OPTIONS=--enable-source-maps.
if (process.argv.slice(2).includes('daemon')) process.setSourceMapsEnabled(true);
const { main } = await import('../dist/bundle/main.js');
process.exitCode = await main(process.argv);
