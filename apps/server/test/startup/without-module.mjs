// `node --import ./without-module.mjs`: the package named by WITHOUT_MODULE (`unix-dgram`,
// `janode`) fails to load, as a native addon that never built does. For native-addon.test.ts
// only: the server knows nothing of it.
import { register } from 'node:module';

const name = process.env.WITHOUT_MODULE;
if (name) {
  // What `bindings` throws when the addon was never built (its list of tried paths shortened).
  const message = `Could not locate the bindings file. Tried:\n → /nowhere/${name}/build/Release/${name.replace(/-/g, '_')}.node`;
  // The stand-in: the names its importers ask for, then the throw, at evaluation as the addon's.
  const source = `export const createSocket = null; export default null; throw new Error(${JSON.stringify(message)});`;
  const failing = `data:text/javascript,${encodeURIComponent(source)}`;
  const hooks = `
    const name = ${JSON.stringify(name)};
    export async function resolve(specifier, context, next) {
      if (specifier === name || specifier.startsWith(name + '/')) return { url: ${JSON.stringify(failing)}, shortCircuit: true };
      return next(specifier, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
