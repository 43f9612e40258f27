// Ends a Jest run with one plain line, `tests: N passed, N failed, N skipped`, that any CI reads.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites } = results;
    const failed = numFailedTests + numRuntimeErrorTestSuites;
    process.stdout.write(`\ntests: ${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped\n`);
  }
}
module.exports = SummaryReporter;
