/**
 * The instant the tests' clocks start at (the stand-in's, the preview's, the sandbox's), unless a
 * test names its own: Wednesday 2026-11-25 10:00 UTC. Mid-week and mid-morning, so the hours and
 * days a test moves through cross no weekly schedule's Monday and no day's end by accident; a test
 * whose outcome depends on the weekday or hour names its own instant and says why. Under jest a
 * clock given no instant refuses to start (scripts/lib/clock-start.ts, IGDATA_NAMED_CLOCKS).
 */
export const TEST_START = '2026-11-25T10:00:00Z';
