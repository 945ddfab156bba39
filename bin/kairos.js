#!/usr/bin/env node
// The CLI and the daemon run from dist/bundle/ (scripts/bundle.mjs: a few files load much faster
// than hundreds); its source maps turn stack traces back into src/ lines.
process.setSourceMapsEnabled(true);
const { main } = await import('../dist/bundle/main.js');
process.exitCode = await main(process.argv);
