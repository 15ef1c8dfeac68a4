// How long a bundle takes to evaluate in a fresh V8 context, as every custom-function call pays it
// (Apps Script loads the whole project each time): the script is compiled outside the timing, then
// run in a new empty context; median of `rounds`. Several bundles are measured in interleaved
// rounds, so a busy moment of the machine falls on all of them alike. Used by bench:sheets and
// bench:validators.
import vm from 'node:vm';

/** { name: source } -> { name: { medianMs, maxMs } } */
export function evalTimes(sources, rounds = 30) {
  const scripts = Object.entries(sources).map(([name, source]) => [
    name,
    new vm.Script(source, { filename: `${name}.js` }),
  ]);
  const times = Object.fromEntries(scripts.map(([name]) => [name, []]));
  for (let r = 0; r < rounds + 3; r++) {
    for (const [name, script] of scripts) {
      const ctx = vm.createContext({});
      const t0 = performance.now();
      script.runInContext(ctx);
      const ms = performance.now() - t0;
      if (r >= 3) times[name].push(ms); // the first rounds warm V8's own code up
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([name, t]) => {
      t.sort((a, b) => a - b);
      return [name, { medianMs: t[Math.floor(t.length / 2)], maxMs: t[t.length - 1] }];
    }),
  );
}
