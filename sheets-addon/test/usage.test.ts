/** The usage log's rules in-process: adding, merging, and fitting one 9 KB document property. */
import { addUsage, mergeUsage, parseUsage } from '../src/engine/usage';

test('credits add up by day and by what spent them; an unreadable log is empty', () => {
  const u = addUsage(addUsage({}, 'IGPROFILE B2', 3, '2026-11-01'), 'IGPROFILE B2', 2, '2026-11-01');
  expect(mergeUsage(u, { '2026-11-02': { 'Run 2026-11-02T09:00 IGPROFILE': 40 } })).toEqual({
    '2026-11-01': { 'IGPROFILE B2': 5 },
    '2026-11-02': { 'Run 2026-11-02T09:00 IGPROFILE': 40 },
  });
  expect(parseUsage('{broken')).toEqual({});
  expect(parseUsage(null)).toEqual({});
});

test('the oldest days go first when the log would not fit one property (8,500 characters)', () => {
  const u = {};
  for (let d = 1; d <= 60; d++)
    for (let c = 0; c < 10; c++) addUsage(u, `IGPROFILE B${c}`, 1, `2026-09-${String(d).padStart(2, '0')}`);
  const out = mergeUsage(u, {});
  expect(JSON.stringify(out).length).toBeLessThanOrEqual(8500);
  const days = Object.keys(out).sort();
  expect(days[days.length - 1]).toBe('2026-09-60');
  expect(days.length).toBeGreaterThan(20);
  expect(days[0] > '2026-09-01').toBe(true);
});
