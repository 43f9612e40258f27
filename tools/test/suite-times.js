#!/usr/bin/env node
// Where a Jest run's time goes: each suite's time beside what its test systems' starts and stops
// cost (libs/testing/src/system.ts writes them with TEAMCHAT_TEST_TIMINGS set) and what its tests'
// own bodies took. One file at a time, as CI runs:
//   TEST_WORKERS=1 TEAMCHAT_TEST_TIMINGS=/tmp/timings.jsonl npx jest --json --outputFile=/tmp/jest.json
//   node tools/test/suite-times.js /tmp/jest.json /tmp/timings.jsonl [how many suites to list]
const fs = require('node:fs');
const path = require('node:path');

const [resultsFile, timingsFile, top = '15'] = process.argv.slice(2);
if (!resultsFile) {
  process.stderr.write('usage: suite-times.js <jest --json output> [timings file] [suites to list]\n');
  process.exit(2);
}
const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
const harness = new Map(); // test path → { start, stop, starts } in ms
if (timingsFile && fs.existsSync(timingsFile)) {
  for (const line of fs.readFileSync(timingsFile, 'utf8').split('\n').filter(Boolean)) {
    const { testPath, phase, ms } = JSON.parse(line);
    const entry = harness.get(testPath) ?? { start: 0, stop: 0, starts: 0 };
    entry[phase] += ms;
    if (phase === 'start') entry.starts++;
    harness.set(testPath, entry);
  }
}

const root = path.resolve(__dirname, '../..');
const suites = results.testResults.map((suite) => {
  const { start = 0, stop = 0, starts = 0 } = harness.get(suite.name) ?? {};
  return {
    name: path.relative(root, suite.name),
    seconds: (suite.endTime - suite.startTime) / 1000,
    tests: suite.assertionResults.length,
    bodies: suite.assertionResults.reduce((sum, test) => sum + (test.duration ?? 0), 0) / 1000,
    start: start / 1000,
    stop: stop / 1000,
    starts,
    status: suite.status,
  };
});
suites.sort((a, b) => b.seconds - a.seconds);
const sum = (key) => suites.reduce((total, suite) => total + suite[key], 0);
const s = (seconds) => `${seconds.toFixed(0)} s`;
const lastEnd = Math.max(...results.testResults.map((suite) => suite.endTime));
console.log(`${suites.length} suites, ${sum('tests')} tests, ${results.numFailedTests} failed; first suite to last: ${s((lastEnd - results.startTime) / 1000)}`);
console.log(`suites ${s(sum('seconds'))} = test bodies ${s(sum('bodies'))} + system starts ${s(sum('start'))} (${sum('starts')}) + stops ${s(sum('stop'))} + the rest (module loading, hooks) ${s(sum('seconds') - sum('bodies') - sum('start') - sum('stop'))}`);
console.log('   suite  bodies   start  stop  tests');
for (const suite of suites.slice(0, Number(top))) {
  const cells = [suite.seconds, suite.bodies, suite.start, suite.stop].map((value, i) => value.toFixed(1).padStart(i === 3 ? 5 : 7));
  console.log(`${cells.join(' ')}  ${String(suite.tests).padStart(5)}  ${suite.name}${suite.status === 'passed' ? '' : ` (${suite.status})`}`);
}
