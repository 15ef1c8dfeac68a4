// The floor under the range formula's wall time, in the same stand-in and sandbox: a one-function
// script that sends the same unique requests as bare fetchAll batches of 50 and reads each answer's
// field, with no answer store, claims, reuse rules or cell formatting. What (a) and (b) take beyond
// it is the add-on's own work; what it takes beyond the batching bound is the stand-in's HTTP path
// and the sandbox's serving (one Node thread answering 50 requests at once).

const SCRIPT = `function FLOOR(urls, key) {
  var out = [];
  for (var b = 0; b < urls.length; b += 50) {
    var batch = urls.slice(b, b + 50).map(function (u) {
      return { url: u, headers: { Authorization: 'Bearer ' + key }, muteHttpExceptions: true };
    });
    var rs = UrlFetchApp.fetchAll(batch);
    for (var i = 0; i < rs.length; i++) {
      var j = JSON.parse(rs[i].getContentText());
      out.push([j.data ? j.data.followers : j.error.code]);
    }
  }
  return out;
}`;

/** A fresh runtime with the floor script (its HTTP thread started, as the add-on's in the bench). */
export function floorRuntime({ createGasRuntime, sb, prod }) {
  return createGasRuntime({
    files: [{ name: 'floor.js', code: SCRIPT }],
    manifest: null,
    startHttpThread: true,
    rewriteUrl: (u) => (u.startsWith(prod) ? sb.url + u.slice(prod.length) : u),
  });
}

/** One execution: a request for each of `handles`, in batches of 50. */
export function runFloor(rt, { key, prod, handles }) {
  const urls = handles.map((h) => `${prod}/v1/profile?handle=${encodeURIComponent(h)}`);
  const out = rt.custom('FLOOR', urls, key);
  if (out.length !== handles.length) throw new Error('floor: wrong row count');
  return { batches: rt.stats.fetchAllCalls };
}
