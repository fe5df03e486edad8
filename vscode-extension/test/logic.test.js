// The rest of the pure logic: bounded restarts, the status bar text, rule
// documentation, and the server's log lines.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { RestartPolicy } = require('../out/restartPolicy.js');
const { statusView } = require('../out/status.js');
const { parseRules, ruleSection, explainTextToMarkdown, ruleAt } = require('../out/rules.js');
const { parseServerLogLine } = require('../out/serverLog.js');

test('restart policy: 5 restarts in 3 minutes, then stop; old crashes age out; reset', () => {
  let now = 0;
  const p = new RestartPolicy(5, 180000, () => now);
  for (let i = 1; i <= 5; i++) {
    const d = p.crashed();
    assert.deepStrictEqual([d.restart, d.crashes], [true, i]);
    now += 1000;
  }
  const d = p.crashed();
  assert.strictEqual(d.restart, false);
  assert.match(d.message, /6 times in 3 minutes and will not be restarted/);
  now += 180000;
  assert.deepStrictEqual([p.crashed().restart, p.crashed().crashes], [true, 2], 'crashes older than the window forgotten');
  p.reset();
  assert.strictEqual(p.crashed().crashes, 1);
});

test('status bar text per state', () => {
  assert.deepStrictEqual(statusView('running', { server: '/b/scalelint (bundled)', version: 'v1.2.3' }), {
    text: '$(check) scalelint',
    tooltip: 'scalelint language server: running\nServer: /b/scalelint (bundled) (v1.2.3)\nClick to show the output.',
    background: undefined,
  });
  assert.strictEqual(statusView('starting').text, '$(loading~spin) scalelint');
  assert.strictEqual(statusView('stopped').background, 'statusBarItem.warningBackground');
  const err = statusView('notFound', { message: 'No usable scalelint binary' });
  assert.strictEqual(err.background, 'statusBarItem.errorBackground');
  assert.match(err.tooltip, /binary not found\nNo usable scalelint binary/);
});

test('rules: the JSON list', () => {
  assert.deepStrictEqual(parseRules('[{"name":"a","severity":"error","title":"A"},{"name":"b"},{"x":1}]'), [
    { name: 'a', severity: 'error', title: 'A' },
    { name: 'b', severity: '', title: '' },
  ]);
  assert.throws(() => parseRules('{}'), /expected an array/);
});

test('rules: one section of the Markdown reference, headings raised, fences kept', () => {
  const md = [
    '# scalelint rules',
    '',
    '## a',
    '',
    'Rule A.',
    '',
    '### What it does',
    '',
    '```yaml',
    '## comment, not a heading',
    '```',
    '',
    '## b',
    '',
    'Rule B.',
    '',
  ].join('\n');
  assert.strictEqual(ruleSection(md, 'a'), '# a\n\nRule A.\n\n## What it does\n\n```yaml\n## comment, not a heading\n```\n');
  assert.strictEqual(ruleSection(md, 'b'), '# b\n\nRule B.\n');
  assert.strictEqual(ruleSection(md, 'c'), undefined);
});

test('rules: `scalelint explain` text as Markdown', () => {
  const text = [
    'latency-floor: Backlog threshold below the standing delay (default severity: error)',
    '',
    'WHAT IT DOES',
    '  Computes D = T/c.',
    '',
    'EXAMPLE',
    '  spec:',
    '    triggers:',
    '',
    'OPTIONS (.scalelint.yaml: rules: {latency-floor: {OPTION: value}})',
    '  margin (default 0.1)',
    '',
  ].join('\n');
  assert.strictEqual(
    explainTextToMarkdown(text),
    [
      '# latency-floor',
      '',
      'Backlog threshold below the standing delay (default severity: error)',
      '',
      '## What it does',
      '',
      'Computes D = T/c.',
      '',
      '## Example',
      '',
      '```yaml',
      'spec:',
      '  triggers:',
      '```',
      '',
      '## Options (.scalelint.yaml: rules: {latency-floor: {OPTION: value}})',
      '',
      'margin (default 0.1)',
      '',
    ].join('\n'),
  );
});

test('rules: the rule under the cursor', () => {
  const r = (l1, c1, l2, c2) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
  const diags = [
    { source: 'yaml', code: 'x', range: r(0, 0, 9, 0) },
    { source: 'scalelint', code: { value: 'latency-floor' }, range: r(3, 4, 3, 8) },
    { source: 'scalelint', code: 'tolerance-trap', range: r(5, 0, 5, 3) },
  ];
  assert.strictEqual(ruleAt(diags, { line: 3, character: 8 }), 'latency-floor');
  assert.strictEqual(ruleAt(diags, { line: 5, character: 1 }), 'tolerance-trap');
  assert.strictEqual(ruleAt(diags, { line: 1, character: 0 }), undefined, 'another source is not a rule');
});

test('server log lines keep their slog level', () => {
  assert.deepStrictEqual(parseServerLogLine('time=2026-01-01T00:00:00Z level=INFO msg="indexed workspace" files=2'), {
    level: 'info',
    text: 'indexed workspace files=2',
  });
  assert.deepStrictEqual(parseServerLogLine('time=t level=WARN msg="unknown setting \\"path\\" ignored"'), {
    level: 'warn',
    text: 'unknown setting "path" ignored',
  });
  assert.deepStrictEqual(parseServerLogLine('level=DEBUG msg=lint took=1ms'), { level: 'debug', text: 'lint took=1ms' });
  assert.deepStrictEqual(parseServerLogLine('time=t level=ERROR+2 msg=boom'), { level: 'error', text: 'boom' });
  assert.deepStrictEqual(parseServerLogLine('panic: runtime error'), { level: 'error', text: 'panic: runtime error' });
});
