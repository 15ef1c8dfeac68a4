'use strict';
// jest's global teardown: stops the n8n servers the run's suites shared and removes their folder.
module.exports = () => require('../n8n-harness/shared.cjs').closeRun();
