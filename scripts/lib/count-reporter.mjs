// A node:test reporter that only counts results and writes them as JSON at the end, so the test
// orchestrator can print one honest summary line across all suites.
export default async function* countReporter(source) {
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    // Suites (describe) report too; count only leaf tests.
    if (event.data.details?.type === 'suite') continue;
    if (event.type === 'test:fail') counts.failed += 1;
    else if (event.data.skip !== undefined) counts.skipped += 1;
    else if (event.data.todo !== undefined) counts.todo += 1;
    else counts.passed += 1;
  }
  yield JSON.stringify(counts);
}
