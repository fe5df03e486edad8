// The extension's settings and their translation into what `scalelint lsp`
// accepts (lsp/config.go): the keys of .scalelint.yaml (rules, defaults,
// exclude, namespace, overrides) plus logLevel, debounceMs and the index's
// caps (maxIndexedFiles, maxIndexedBytes), sent as initializationOptions,
// in workspace/didChangeConfiguration and in answer to
// workspace/configuration. Editor-only settings (path, trace.server) are
// never sent: the server would warn about unknown keys. Pure logic.

export const SECTION = 'scalelint';

/** The server's configuration keys (lsp/config.go configKeys and serverKeys). */
export const SERVER_KEYS = [
  'rules',
  'defaults',
  'exclude',
  'namespace',
  'overrides',
  'logLevel',
  'debounceMs',
  'maxIndexedFiles',
  'maxIndexedBytes',
] as const;

/** Settings whose change needs a new server process rather than a notification. */
export const RESTART_SETTINGS = ['scalelint.path'];

export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ExtensionSettings {
  path: string;
  rules: Record<string, unknown>;
  defaults: Record<string, string | number>;
  exclude: string[];
  namespace: string;
  overrides: Record<string, unknown>[];
  logLevel?: LogLevel;
  debounceMs?: number;
  maxIndexedFiles?: number;
  maxIndexedBytes?: number;
}

export interface ServerSettings {
  rules?: Record<string, unknown>;
  defaults?: Record<string, string | number>;
  exclude?: string[];
  namespace?: string;
  overrides?: Record<string, unknown>[];
  logLevel?: LogLevel;
  debounceMs?: number;
  maxIndexedFiles?: number;
  maxIndexedBytes?: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A plain JSON copy (VS Code hands out frozen proxies of its configuration objects). */
function plain<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/**
 * Reads the settings through get (WorkspaceConfiguration.get of the
 * "scalelint" section), dropping values of the wrong type and empty entries
 * rather than sending the server something it would refuse.
 */
export function readSettings(get: (key: string) => unknown): ExtensionSettings {
  const str = (k: string): string => {
    const v = get(k);
    return typeof v === 'string' ? v.trim() : '';
  };
  const rules: Record<string, unknown> = {};
  const rawRules = get('rules');
  if (isObject(rawRules)) {
    for (const [name, v] of Object.entries(rawRules)) {
      if (typeof v === 'string' && v.trim() !== '') {
        rules[name] = v.trim();
      } else if (typeof v === 'boolean' || isObject(v)) {
        rules[name] = plain(v);
      }
    }
  }
  const defaults: Record<string, string | number> = {};
  const rawDefaults = get('defaults');
  if (isObject(rawDefaults)) {
    for (const [name, v] of Object.entries(rawDefaults)) {
      if (typeof v === 'string' && v.trim() !== '') {
        defaults[name] = v.trim();
      } else if (typeof v === 'number' && Number.isFinite(v)) {
        defaults[name] = v;
      }
    }
  }
  const rawExclude = get('exclude');
  const exclude = Array.isArray(rawExclude)
    ? rawExclude.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim())
    : [];
  const rawOverrides = get('overrides');
  const overrides = Array.isArray(rawOverrides) ? rawOverrides.filter(isObject).map((o) => plain(o)) : [];
  const level = str('logLevel').toLowerCase();
  const debounce = get('debounceMs');
  // The caps are whole numbers, one or more (the server refuses others).
  const count = (k: string): number | undefined => {
    const v = get(k);
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined;
  };
  return {
    path: str('path'),
    rules,
    defaults,
    exclude,
    namespace: str('namespace'),
    overrides,
    logLevel: (LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevel) : undefined,
    debounceMs: typeof debounce === 'number' && Number.isFinite(debounce) && debounce >= 0 ? debounce : undefined,
    maxIndexedFiles: count('maxIndexedFiles'),
    maxIndexedBytes: count('maxIndexedBytes'),
  };
}

/**
 * The settings object the server reads: only the server's keys, and only
 * those that say something (an empty rules map or exclude list is left out,
 * so the project's .scalelint.yaml alone decides).
 */
export function toServerSettings(s: ExtensionSettings): ServerSettings {
  const out: ServerSettings = {};
  if (Object.keys(s.rules).length > 0) {
    out.rules = s.rules;
  }
  if (Object.keys(s.defaults).length > 0) {
    out.defaults = s.defaults;
  }
  if (s.exclude.length > 0) {
    out.exclude = s.exclude;
  }
  if (s.namespace !== '') {
    out.namespace = s.namespace;
  }
  if (s.overrides.length > 0) {
    out.overrides = s.overrides;
  }
  if (s.logLevel !== undefined) {
    out.logLevel = s.logLevel;
  }
  if (s.debounceMs !== undefined) {
    out.debounceMs = s.debounceMs;
  }
  // Sent even at their defaults, which VS Code hands over when the user
  // sets none: a change without them leaves the server's caps as they
  // were (lsp/config.go), so clearing a setting must send the default.
  if (s.maxIndexedFiles !== undefined) {
    out.maxIndexedFiles = s.maxIndexedFiles;
  }
  if (s.maxIndexedBytes !== undefined) {
    out.maxIndexedBytes = s.maxIndexedBytes;
  }
  return out;
}

export interface ConfigurationItemLike {
  section?: string | null;
  scopeUri?: string | null;
}

/**
 * Answers a workspace/configuration request: the "scalelint" section is
 * replaced by its translation (read for the item's scope); other sections
 * keep the client's own answer.
 */
export function translateConfigurationResult(
  items: ConfigurationItemLike[],
  results: unknown[],
  read: (scopeUri: string | undefined) => ServerSettings,
): unknown[] {
  return items.map((item, i) =>
    item.section === SECTION ? read(item.scopeUri ?? undefined) : results[i] === undefined ? null : results[i],
  );
}
