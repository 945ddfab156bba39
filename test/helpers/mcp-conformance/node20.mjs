// `node --import ./node20.mjs …/conformance/dist/index.js`: on Node 20, the suite's `fs` import
// gets fs-with-glob.mjs (node:fs plus globSync). On Node 22+ nothing is changed.
import { register } from 'node:module';

if (Number(process.versions.node.split('.')[0]) < 22) {
  register(
    `data:text/javascript,${encodeURIComponent(`
      const shim = ${JSON.stringify(new URL('./fs-with-glob.mjs', import.meta.url).href)};
      export async function resolve(specifier, context, next) {
        if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
          return { url: shim, shortCircuit: true };
        }
        return next(specifier, context);
      }`)}`,
  );
}
