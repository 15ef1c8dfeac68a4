// google.script.run for the Sheets preview: each call is POST /run {fn, args} to the preview
// server, which runs it as one 'script' execution of the add-on in the Apps Script stand-in.
// Asynchronous, success/failure handlers, withUserObject; private functions (ending in _) absent.
// After each call the page around the sidebar is told to refresh its grid.
// The sidebar's Date follows the stand-in's clock (the script's), which the page moves on with time
// travel ({ igdataClock: ms } messages), so "last run" and "this month" agree with the script's.
(function () {
  var names = __NAMES__;
  var offset = __CLOCK_OFFSET__;
  var RealDate = Date;
  var StandinDate = function Date() {
    if (!new.target) return new RealDate(RealDate.now() + offset).toString();
    return Reflect.construct(RealDate, arguments.length ? arguments : [RealDate.now() + offset], new.target);
  };
  StandinDate.prototype = RealDate.prototype;
  StandinDate.now = function () {
    return RealDate.now() + offset;
  };
  StandinDate.parse = RealDate.parse;
  StandinDate.UTC = RealDate.UTC;
  window.Date = StandinDate;
  window.addEventListener('message', function (e) {
    if (e.data && typeof e.data.igdataClock === 'number') offset = e.data.igdataClock - RealDate.now();
  });
  var formToObject = function (f) {
    var o = {};
    new FormData(f).forEach(function (v, k) {
      o[k] = typeof v === 'string' ? v : null;
    });
    return o;
  };
  var deliver = function (s, reply) {
    if (reply.ok) {
      if (s.success) s.success(reply.value, s.userObject);
      return;
    }
    var e = new Error(reply.error.message);
    e.name = reply.error.name;
    if (s.failure) s.failure(e, s.userObject);
    else console.error('Uncaught ' + e.name + ': ' + e.message);
  };
  // The calls in flight, on <html data-calls>: a call counts until the page around the sidebar has
  // seen its notice (and counts its grid refresh as busy: index.html), for tests to wait on.
  var inFlight = 0;
  var seq = 0;
  var count = function (d) {
    inFlight += d;
    document.documentElement.setAttribute('data-calls', String(inFlight));
  };
  // A notice posted before the page listens would be lost (and its call counted for ever): notices
  // wait until the page has said it listens, in answer to our hello or when its script starts.
  var listening = false;
  var queued = [];
  var post = function (fn) {
    window.parent.postMessage({ gasRan: fn, gasCall: ++seq }, '*');
  };
  window.addEventListener('message', function (e) {
    if (!e.data) return;
    if (typeof e.data.gasSeen === 'number') count(-1);
    if (e.data.gasListening && !listening) {
      listening = true;
      queued.splice(0).forEach(post);
    }
  });
  var notify = function (fn) {
    try {
      if (window.parent !== window) {
        if (listening) post(fn);
        else queued.push(fn);
        return;
      }
    } catch {
      /* no parent */
    }
    count(-1);
  };
  try {
    if (window.parent !== window) window.parent.postMessage({ gasHello: true }, '*');
  } catch {
    /* no parent */
  }
  var runner = function (s) {
    var r = {
      withSuccessHandler: function (f) {
        return runner(Object.assign({}, s, { success: f }));
      },
      withFailureHandler: function (f) {
        return runner(Object.assign({}, s, { failure: f }));
      },
      withUserObject: function (o) {
        return runner(Object.assign({}, s, { userObject: o }));
      },
    };
    names.forEach(function (name) {
      r[name] = function () {
        var args = Array.prototype.map.call(arguments, function (a) {
          return typeof HTMLFormElement !== 'undefined' && a instanceof HTMLFormElement ? formToObject(a) : a;
        });
        var payload;
        try {
          payload = JSON.stringify({ fn: name, args: args });
        } catch {
          setTimeout(function () {
            deliver(s, { ok: false, error: { name: 'Error', message: 'Failed due to illegal value' } });
          }, 0);
          return;
        }
        count(1);
        fetch('/run', { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload })
          .then(function (res) {
            return res.json();
          })
          .then(
            function (reply) {
              deliver(s, reply);
              notify(name);
            },
            function (err) {
              deliver(s, { ok: false, error: { name: 'NetworkError', message: String((err && err.message) || err) } });
              count(-1);
            },
          );
      };
    });
    return r;
  };
  window.google = {
    script: {
      get run() {
        return runner({});
      },
      host: {
        close: function () {
          try {
            window.parent.postMessage({ gasHostClose: true }, '*');
          } catch {
            /* no parent */
          }
        },
        setHeight: function () {},
        setWidth: function () {},
        editor: { focus: function () {} },
        origin: location.origin,
      },
      url: {
        getLocation: function (cb) {
          cb({ hash: '', parameter: {}, parameters: {} });
        },
      },
    },
  };
})();
