// Settings translation: the extension's settings into what `scalelint lsp`
// reads (lsp/config.go), as initializationOptions, pushed notifications and
// answers to workspace/configuration.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { readSettings, toServerSettings, translateConfigurationResult, SERVER_KEYS } = require('../out/settings.js');

const from = (obj) => readSettings((k) => obj[k]);

test('defaults (as VS Code hands them over) translate to nothing but the log level and the index caps', () => {
  const s = from({
    path: '',
    rules: {},
    defaults: {},
    exclude: [],
    namespace: '',
    overrides: [],
    logLevel: 'warn',
    debounceMs: null,
    maxIndexedFiles: 40000,
    maxIndexedBytes: 134217728,
  });
  // The caps go even at their defaults: a change without them would leave
  // the server's previous caps in place (lsp/config.go), so clearing a
  // setting must send the default VS Code hands over.
  assert.deepStrictEqual(toServerSettings(s), { logLevel: 'warn', maxIndexedFiles: 40000, maxIndexedBytes: 134217728 });
  assert.deepStrictEqual(toServerSettings(from({})), {});
});

test('every server key, and no editor-only key', () => {
  const s = from({
    path: '/opt/scalelint',
    rules: { 'latency-floor': { severity: 'warning', margin: 0.2 }, 'retry-trap': 'off', 'ceiling-trap': false },
    defaults: { 'dead-time': '90s', 'pod-rate': 10 },
    exclude: ['vendor/**'],
    namespace: 'prod',
    overrides: [{ paths: ['legacy/**'], rules: { 'tolerance-trap': 'off' } }],
    logLevel: 'debug',
    debounceMs: 25,
    maxIndexedFiles: 500,
    maxIndexedBytes: 1048576,
    trace: { server: 'verbose' },
  });
  assert.strictEqual(s.path, '/opt/scalelint');
  const out = toServerSettings(s);
  assert.deepStrictEqual(out, {
    rules: { 'latency-floor': { severity: 'warning', margin: 0.2 }, 'retry-trap': 'off', 'ceiling-trap': false },
    defaults: { 'dead-time': '90s', 'pod-rate': 10 },
    exclude: ['vendor/**'],
    namespace: 'prod',
    overrides: [{ paths: ['legacy/**'], rules: { 'tolerance-trap': 'off' } }],
    logLevel: 'debug',
    debounceMs: 25,
    maxIndexedFiles: 500,
    maxIndexedBytes: 1048576,
  });
  assert.deepStrictEqual(Object.keys(out), [...SERVER_KEYS]);
});

test('values of the wrong type and empty entries are dropped', () => {
  const out = toServerSettings(
    from({
      rules: { a: '', b: null, c: 3, d: ' warning ' },
      defaults: { 'dead-time': '', 'pod-rate': Number.NaN, demand: '  2000 ', x: {} },
      exclude: ['', 7, ' a/** '],
      namespace: '   ',
      overrides: ['x', null, { paths: ['p'] }],
      logLevel: 'LOUD',
      debounceMs: -5,
      maxIndexedFiles: 1.5,
      maxIndexedBytes: '128Mi',
    }),
  );
  assert.deepStrictEqual(out, {
    rules: { d: 'warning' },
    defaults: { demand: '2000' },
    exclude: ['a/**'],
    overrides: [{ paths: ['p'] }],
  });
  assert.deepStrictEqual(toServerSettings(from({ rules: [], defaults: 'x', exclude: 'x', overrides: {} })), {});
  assert.strictEqual(from({ logLevel: 'INFO' }).logLevel, 'info');
  // The caps: whole numbers, one or more, as the server reads them.
  for (const bad of [0, -1, 2.5, Number.NaN, Infinity, 2 ** 60, '20000', null, true]) {
    assert.deepStrictEqual(toServerSettings(from({ maxIndexedFiles: bad, maxIndexedBytes: bad })), {}, String(bad));
  }
  assert.deepStrictEqual(toServerSettings(from({ maxIndexedFiles: 1, maxIndexedBytes: 1 })), { maxIndexedFiles: 1, maxIndexedBytes: 1 });
});

test('the result is a plain copy: editing it never touches the settings', () => {
  const rules = Object.freeze({ r: Object.freeze({ severity: 'info' }) });
  const out = toServerSettings(from({ rules }));
  out.rules.r.severity = 'off';
  assert.strictEqual(rules.r.severity, 'info');
});

test('workspace/configuration: the scalelint section translated, others as the client answered', () => {
  const seen = [];
  const res = translateConfigurationResult(
    [{ section: 'scalelint', scopeUri: 'file:///w/a.yaml' }, { section: 'editor' }, { section: 'scalelint' }, {}],
    [{ path: '/x', trace: { server: 'off' } }, { tabSize: 2 }, {}, undefined],
    (scope) => {
      seen.push(scope);
      return { namespace: scope ? 'scoped' : 'global' };
    },
  );
  assert.deepStrictEqual(res, [{ namespace: 'scoped' }, { tabSize: 2 }, { namespace: 'global' }, null]);
  assert.deepStrictEqual(seen, ['file:///w/a.yaml', undefined]);
});
