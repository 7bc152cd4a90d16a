// Roll20's sheet-worker API (on, getAttrs, setAttrs, getSectionIDs, and underscore's _.each), enough to
// run a character sheet's own <script type="text/worker"> under node. Ours, not Roll20's: written from
// Roll20's documentation of the API. The sheet is read from the file named on the command line (its
// HTML); nothing is fetched.
//
//   node roll20_harness.js DQSheet.html < {"attributes": {...}, "edits": ["ps", ...], "defaults": {...}}
//   > {"attributes": {...}}  (each as the sheet shows it)
//
// `attributes` are set silently (as the VTT Enhancement Suite imports them); then each of `edits` raises
// its change event, as a player retyping it does, and every change a worker's setAttrs makes raises its
// own, until nothing more changes. Values keep their JavaScript type: an import's are text, a worker's
// what it set.
"use strict";
const fs = require("fs");
const vm = require("vm");

const ROW = /^repeating_([a-z0-9]+)_(-[^_]+)_(.+)$/;
const attrs = {};
const rows = {};
const handlers = [];
const queue = [];

function store(name, value) {
  attrs[name] = value;
  const match = ROW.exec(name);
  if (match) {
    const ids = (rows[match[1]] = rows[match[1]] || []);
    if (!ids.includes(match[2])) ids.push(match[2]);
  }
}

function full(name, row) {
  if (!row || !name.startsWith("repeating_") || ROW.test(name)) return name;
  const rest = name.slice("repeating_".length);
  const cut = rest.indexOf("_");
  return `repeating_${rest.slice(0, cut)}_${row}_${rest.slice(cut + 1)}`;
}

function context(row) {
  return {
    on(events, handler) {
      for (const event of events.toLowerCase().split(/\s+/)) handlers.push([event, handler]);
    },
    getAttrs(names, callback) {
      const found = {};
      for (const name of names) {
        const key = full(name, row);
        found[name] = key in attrs ? attrs[key] : defaults(key);
      }
      callback(found);
    },
    setAttrs(values, options, callback) {
      for (const [name, value] of Object.entries(values)) {
        const key = full(name, row);
        const changed = attrs[key] !== value;
        store(key, value);
        if (changed && !(options && options.silent)) queue.push(key);
      }
      if (typeof options === "function") options();
      else if (callback) callback();
    },
    getSectionIDs(section, callback) {
      callback([...(rows[section.replace(/^repeating_/, "")] || [])]);
    },
    _: { each: (object, fn) => Object.entries(object).forEach(([key, value]) => fn(value, key)) },
  };
}

let defaultValues = {};
function defaults(key) {
  const match = ROW.exec(key);
  const short = match ? `${match[1]}:${match[3]}` : key;
  return short in defaultValues ? defaultValues[short] : "";
}

function main() {
  const html = fs.readFileSync(process.argv[2], "utf8");
  const script = /<script type="text\/worker">([\s\S]*?)<\/script>/.exec(html)[1];
  const input = JSON.parse(fs.readFileSync(0, "utf8"));
  defaultValues = input.defaults || {};
  let row = null;
  const api = context(null);
  const sandbox = {
    on: api.on,
    getSectionIDs: api.getSectionIDs,
    _: api._,
    getAttrs: (names, callback) => context(row).getAttrs(names, callback),
    setAttrs: (values, options, callback) => context(row).setAttrs(values, options, callback),
    console,
  };
  vm.runInNewContext(script, sandbox);
  for (const [name, value] of Object.entries(input.attributes)) store(name, value);
  for (const name of input.edits) {
    queue.push(name);
    for (let steps = 0; queue.length; steps++) {
      if (steps > 100000) throw new Error("the sheet's workers do not settle");
      const changed = queue.shift();
      const match = ROW.exec(changed);
      const event = match ? `change:repeating_${match[1]}:${match[3]}` : `change:${changed}`;
      for (const [on, handler] of handlers) {
        if (on !== event) continue;
        row = match ? match[2] : null;
        handler({ sourceAttribute: changed });
        row = null;
      }
    }
  }
  // as the sheet shows each value (String(NaN) is "NaN", which JSON would make null)
  const shown = Object.fromEntries(Object.entries(attrs).map(([name, value]) => [name, String(value)]));
  process.stdout.write(JSON.stringify({ attributes: shown }));
}

main();
