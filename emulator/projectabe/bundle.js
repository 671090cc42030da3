// ProjectABE's published build, loaded from a folder (never copied here).
//
// `app.js` is a browserify bundle: a prelude function called with a table
// {id: [factory(require, module, exports), {request name: id}]}, a cache and
// the entry ids, which start the web UI. The table is evaluated on its own,
// without the prelude, so no entry runs; modules are then required by their
// request names through a small resolver of our own. Everything runs inside
// one `vm` context per board: the modules keep state at module level, and the
// context carries the browser stand-ins (browser.js) and a seeded Math.random.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import vm from 'node:vm';

export const PINNED = JSON.parse(readFileSync(new URL('./pinned.json', import.meta.url), 'utf8'));
const PRELUDE_END = 'return s})(';

export class BuildError extends Error {}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Read and check the pinned files of a ProjectABE folder.
 * @param {string} dir folder holding app.js and layouts/Sim.html
 * @param {{ anyBuild?: boolean }} options anyBuild: accept files whose sha256 differs from pinned.json
 * @returns {{ dir: string, appJs: string, simHtml: string, hashes: Record<string, string>, pinned: boolean }}
 */
export function readBuild(dir, { anyBuild = false } = {}) {
  const root = resolve(dir);
  const texts = {};
  const hashes = {};
  let pinned = true;
  for (const [path, want] of Object.entries(PINNED.files)) {
    const file = join(root, path);
    if (!existsSync(file)) {
      throw new BuildError(`ProjectABE build incomplete: ${file} is missing (run: whist projectabe fetch)`);
    }
    const bytes = readFileSync(file);
    hashes[path] = sha256(bytes);
    if (hashes[path] !== want) {
      pinned = false;
      if (!anyBuild) {
        throw new BuildError(`ProjectABE build not the pinned one: sha256 of ${file} is ${hashes[path]}, ` +
          `expected ${want} (commit ${PINNED.commit.slice(0, 7)}); run: whist projectabe fetch, or pass --any-build`);
      }
    }
    texts[path] = bytes.toString('utf8'); // the opcode table uses non-ASCII characters (U+2190)
  }
  return { dir: root, appJs: texts['app.js'], simHtml: texts['layouts/Sim.html'], hashes, pinned };
}

/**
 * Evaluate the bundle's module table inside `context` and return a resolver.
 * @returns {{ require: (name: string) => any, names: string[] }}
 */
export function loadModules(appJs, context, filename = 'app.js') {
  const cut = appJs.indexOf(PRELUDE_END);
  if (cut < 0) throw new BuildError(`${filename} is not a browserify bundle (no prelude found)`);
  const args = appJs.slice(cut + PRELUDE_END.length - 1).trim().replace(/;$/, '');
  if (!args.startsWith('(') || !args.endsWith(')')) throw new BuildError(`${filename}: unexpected bundle layout`);
  let table;
  try {
    [table] = vm.runInContext(`[${args.slice(1, -1)}]`, context, { filename });
  } catch (e) {
    throw new BuildError(`${filename}: its module table does not evaluate (${e.message})`);
  }
  const ids = new Map(); // request name -> module id, over every module's map
  for (const entry of Object.values(table)) {
    for (const [name, id] of Object.entries(entry[1])) ids.set(name, id);
  }
  const cache = new Map();
  const load = (id) => {
    if (cache.has(id)) return cache.get(id).exports;
    const entry = table[id];
    if (!entry) throw new BuildError(`${filename}: module ${id} is missing from the bundle`);
    const module = { exports: {} };
    cache.set(id, module);
    const local = (name) => {
      const dep = entry[1][name];
      if (dep === undefined) throw new BuildError(`${filename}: module ${id} requires ${JSON.stringify(name)}, not in the bundle`);
      return load(dep);
    };
    entry[0].call(module.exports, local, module, module.exports);
    return module.exports;
  };
  return {
    names: [...ids.keys()],
    require(name) {
      const id = ids.get(name);
      if (id === undefined) throw new BuildError(`${filename} has no module ${JSON.stringify(name)}: not a ProjectABE build?`);
      const exports = load(id);
      return exports && exports.__esModule && 'default' in exports ? exports.default : exports;
    },
  };
}
