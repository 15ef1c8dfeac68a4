'use strict';
// jest's global setup: the folder where this run's real-n8n suites share one n8n per worker and
// version (scripts/n8n-harness/shared.cjs).
module.exports = () => require('../n8n-harness/shared.cjs').openRun();
