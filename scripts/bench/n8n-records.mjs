// The figures `npm run bench:n8n` records (records/n8n.json; `npm run docs` puts them in the
// READMEs), from its summarised rows: what each means is said once, here.
import { fromRounds as fig } from './records.mjs';
import { spread } from './rounds.mjs';
import { RATE } from './n8n-rate-limit.mjs';

export const n8nFigures = ({ http, c200, c200Beyond, def, defFirst, defLater, hp, ip, limit, floorOf }) => ({
  'n8n.lookup.http.ms': fig(http.ms, 'ms', 0, 'lookup of 200 handles (120 unique), HTTP Request node, wall time'),
  'n8n.lookup.http.beyond.ms': fig(http.beyondFloorMs, 'ms', 0, 'the same beyond its latency floor (1 round trip)'),
  'n8n.lookup.c200.ms': fig(c200.ms, 'ms', 0, 'the same lookup, IG Data node at Concurrency 200, wall time'),
  'n8n.lookup.c200.x': fig(c200.ratio, 'x', 2, 'the same over the HTTP Request node, paired rounds'),
  'n8n.lookup.c200.beyond.ms': fig(c200.beyondFloorMs, 'ms', 0, 'the same beyond its latency floor (its round trips)'),
  'n8n.lookup.c200.beyond.x': fig(
    c200Beyond,
    'x',
    2,
    'what the node adds beyond its round trips over what the HTTP Request node adds beyond its own, paired rounds',
  ),
  'n8n.lookup.default.ms': fig(
    def.ms,
    'ms',
    0,
    'the same lookup, IG Data node at the default settings (the pace found: 50 at first, then what it learned), wall time',
  ),
  'n8n.lookup.default.x': fig(def.ratio, 'x', 2, 'the same over the HTTP Request node, paired rounds'),
  'n8n.lookup.default.first.x': fig(
    defFirst,
    'x',
    2,
    "the default's first execution in the process (round 1: the balance read, a first wave of 50) over the HTTP Request node's in the same round",
  ),
  // With one round there is no later execution.
  ...(defLater.n
    ? {
        'n8n.lookup.default.later.x': fig(
          defLater,
          'x',
          2,
          "the default's later executions (rounds 2 on, starting at the width learned) over the HTTP Request node, paired rounds",
        ),
      }
    : {}),
  'n8n.lookup.default.beyond.ms': fig(
    def.beyondFloorMs,
    'ms',
    0,
    'the same beyond its latency floor (its round trips)',
  ),
  'n8n.ratelimit.first.x': fig(
    spread([limit.first.ms / limit.floor]),
    'x',
    2,
    `lookup at the default settings against ${RATE.inFlight} requests in flight (429 + Retry-After beyond), the first execution over the limit's floor`,
  ),
  'n8n.ratelimit.second.x': fig(
    spread([limit.second.ms / limit.floor]),
    'x',
    2,
    'the same, the second execution 10 s later in the same n8n, over the floor',
  ),
  'n8n.paging.http.ms': fig(
    hp.ms,
    'ms',
    0,
    "2,000 #veganrecipes posts (67 pages), the HTTP Request node's pagination, wall time",
  ),
  'n8n.paging.node.ms': fig(ip.ms, 'ms', 0, 'the same, IG Data node, Limit 2000, wall time'),
  'n8n.paging.node.x': fig(ip.ratio, 'x', 2, 'the same over the HTTP Request node, paired rounds'),
  'n8n.paging.floor.x': fig(
    spread(ip.runs.map((r) => r.ms / floorOf(r))),
    'x',
    2,
    'IG Data paging over its latency floor (pages + balance read x latency)',
  ),
});
